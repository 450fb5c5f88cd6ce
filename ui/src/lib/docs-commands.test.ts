// docs/architecture.md lists every command the page may call; a newcomer trusts that list, so it
// must be the real one. The real one is read from the generated bindings, which the Rust test
// `typescript_bindings_are_up_to_date` keeps equal to lib.rs's `collect_commands!`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..', '..');
const HEADING = '## Commands the page may call';

function documented(): string[] {
  const doc = readFileSync(join(REPO, 'docs', 'architecture.md'), 'utf8');
  const start = doc.indexOf(HEADING);
  expect(start, `docs/architecture.md has no "${HEADING}" section`).toBeGreaterThanOrEqual(0);
  const rest = doc.slice(start + HEADING.length);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  // Each list line: "- `folder/`: `command`, `command`"; the folder ends in "/" or ".rs".
  return section
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .flatMap((line) => [...line.slice(line.indexOf(':') + 1).matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]));
}

function registered(): string[] {
  const bindings = readFileSync(join(REPO, 'ui', 'src', 'lib', 'bindings.ts'), 'utf8');
  return [...bindings.matchAll(/__TAURI_INVOKE(?:<[^"]*?>)?\("([a-z0-9_]+)"/g)].map((m) => m[1]);
}

describe('docs/architecture.md command list', () => {
  it('names exactly the registered commands, each once', () => {
    const docs = documented();
    const real = registered();
    expect(real.length).toBeGreaterThan(50);
    expect(docs.filter((name, i) => docs.indexOf(name) !== i), 'listed twice').toEqual([]);
    expect(real.filter((name) => !docs.includes(name)), 'registered but not in the docs').toEqual([]);
    expect(docs.filter((name) => !real.includes(name)), 'in the docs but not registered').toEqual([]);
  });
});
