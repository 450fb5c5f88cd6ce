// No sentence is written into a component: every word a person reads comes from the catalog.
// Reads each .svelte file's template (not its script or style) and flags text, words in the attributes a person reads or
// hears (aria-label, title, placeholder, alt, label), and string literals shown as text.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'svelte/compiler';

const SRC = join(__dirname, '..', '..');
const READ_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'aria-description', 'aria-roledescription', 'aria-valuetext']);

/** Words: at least two letters in a row (so "×", "⋯", "·", "%" and numbers pass). */
const WORDS = /\p{L}{2,}/u;

function svelteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return svelteFiles(path);
    return name.endsWith('.svelte') ? [path] : [];
  });
}

type Node = { type: string; [k: string]: unknown };

function rawText(source: string): string[] {
  const ast = parse(source, { modern: true }) as unknown as { fragment: Node };
  const found: string[] = [];
  const literals = (expression: unknown) => {
    walk(expression, (n) => {
      if (n.type === 'Literal' && typeof n.value === 'string' && WORDS.test(n.value) && /^[A-Z]|\s/.test(n.value.trim())) {
        found.push(n.value);
      }
    }, (n) => n.type === 'CallExpression');
  };
  walk(ast.fragment, (n) => {
    if (n.type === 'Text' && WORDS.test(String(n.data))) found.push(String(n.data).trim());
    if (n.type === 'ExpressionTag') literals(n.expression);
    if (n.type === 'Attribute' && READ_ATTRIBUTES.has(String(n.name))) {
      const values = Array.isArray(n.value) ? n.value : [n.value];
      for (const v of values as Node[]) {
        if (v?.type === 'Text' && WORDS.test(String(v.data))) found.push(String(v.data));
        if (v?.type === 'ExpressionTag') literals(v.expression);
      }
    }
  }, (n) => n.type === 'Attribute' || n.type === 'ExpressionTag' || n.type === 'Script' || n.type === 'StyleSheet');
  return found;
}

/** Visits every node, and the nodes below it where `descend` allows. */
function walk(node: unknown, visit: (n: Node) => void, stop: (n: Node) => boolean = () => false): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit, stop);
    return;
  }
  const n = node as Node;
  if (typeof n.type === 'string') {
    visit(n);
    if (stop(n)) return;
  }
  for (const [key, value] of Object.entries(n)) {
    if (key !== 'parent' && key !== 'metadata') walk(value, visit, stop);
  }
}

describe('components', () => {
  // Components under src/tests/ are pages the tests mount, never shown to a person.
  const files = svelteFiles(SRC)
    .map((path) => relative(SRC, path))
    .filter((file) => !file.startsWith('tests/'));

  it.each(files)('%s takes its words from the catalog', (file) => {
    expect(rawText(readFileSync(join(SRC, file), 'utf8'))).toEqual([]);
  });
});
