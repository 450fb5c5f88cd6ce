import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Every colour and size a component uses comes from app.css. A token used but never defined
// falls back silently (the missed-schedule warning used an undefined `--warning`, and its
// fallback was 3.0:1 in dark mode), so each one used must be defined there, in light, and a
// colour also in dark.
const src = join(__dirname, '..');
const css = readFileSync(join(src, 'app.css'), 'utf8');
const dark = css.slice(css.indexOf('@media (prefers-color-scheme: dark)'));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(svelte|css)$/.test(e.name) ? [join(dir, e.name)] : []);
}

const defined = (text: string) => new Set([...text.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]));

describe('design tokens', () => {
  it('every var(--token) a component uses is defined in app.css', () => {
    const tokens = defined(css);
    // A component may set one on an element for its children (`style:--share={…}`).
    for (const file of files(src)) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/style:(--[\w-]+)/g)) tokens.add(name);
    }
    const missing: string[] = [];
    for (const file of files(src)) {
      const text = readFileSync(file, 'utf8');
      const own = defined(text.replace(/var\([^)]*\)/g, ''));
      for (const [, name] of text.matchAll(/var\((--[\w-]+)/g)) {
        if (!tokens.has(name) && !own.has(name)) missing.push(`${file.slice(src.length)}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the warning colour has its own dark value', () => {
    expect(defined(dark).has('--warn')).toBe(true);
  });
});
