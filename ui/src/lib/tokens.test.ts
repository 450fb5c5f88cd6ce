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

// Every size a component uses is a step of app.css's scales (spacing, type, corners, sizes),
// never its own number: a raw `px` here fails unless it is one of these.
// - 1px: a hairline (a border, a divider) is one device pixel on every scale.
// - A border's or outline's own width or offset (`border: 2px solid`, `outline-offset: -2px`).
// - A media or container query's breakpoint.
// - A component's layout dimension (a column's, a dialog's or a list's width or height): these
//   are its own shape, not a step, and each is named in LAYOUT below.
// - A token's own definition in app.css.
const LAYOUT: Record<string, string[]> = {
  'App.svelte': ['272px', '40px'],
  'lib/components/Composer.svelte': ['52px', '200px'],
  'lib/components/MoreMenu.svelte': ['220px'],
  'lib/components/Modal.svelte': ['520px', '640px'],
  'lib/components/Thread.svelte': ['760px', '460px'],
  'lib/components/ThreadEntry.svelte': ['220px'],
  'lib/components/WaitingList.svelte': ['140px'],
  'lib/features/attachments/AttachmentChips.svelte': ['320px'],
  'lib/features/console/CodeEditor.svelte': ['140px', '300px'],
  'lib/features/console/RunOutput.svelte': ['160px', '220px'],
  'lib/features/film/FilmPlayer.svelte': ['160px', '200px'],
  'lib/features/film/FilmRedact.svelte': ['160px'],
  'lib/features/keys/KeysPage.svelte': ['150px'],
  'lib/features/replay/CodeView.svelte': ['320px'],
  'lib/features/replay/Replay.svelte': ['200px', '110px'],
  'lib/features/replay/StepViewer.svelte': ['1100px'],
  'lib/features/reusable/Library.svelte': ['220px'],
  'lib/features/reusable/SentenceForm.svelte': ['320px'],
  'lib/features/search/SearchBox.svelte': ['640px'],
  'lib/features/spending/CapControl.svelte': ['64px'],
  'lib/features/usage/TaskUsageList.svelte': ['220px', '56px'],
  'lib/features/usage/UsageButton.svelte': ['380px'],
  'lib/features/usage/UsageView.svelte': ['260px'],
  'lib/live/LiveGrid.svelte': ['320px'],
  'lib/live/LiveView.svelte': ['420px'],
};

/** The raw px values of `file` that are none of the allowed kinds. */
function rawPx(file: string, text: string): string[] {
  const layout = LAYOUT[file.slice(src.length + 1)] ?? [];
  const found: string[] = [];
  for (const line of text.replace(/\/\*[\s\S]*?\*\//g, '').split('\n')) {
    if (/@(media|container)/.test(line)) continue;
    for (const decl of line.split(/[;{}]/)) {
      const prop = decl.match(/([\w-]+)\s*:/)?.[1] ?? '';
      if (prop.startsWith('--') || /^(border|outline)/.test(prop)) continue;
      for (const [px] of decl.matchAll(/\d+(\.\d+)?px/g)) {
        if (px !== '1px' && !layout.includes(px)) found.push(`${file.slice(src.length)}: ${decl.trim()}`);
      }
    }
  }
  return found;
}

describe('the size scale', () => {
  it('no component uses a raw px outside the allowed kinds', () => {
    expect(files(src).flatMap((f) => rawPx(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('a raw px a component adds is caught', () => {
    const file = join(src, 'lib/components/Example.svelte');
    expect(rawPx(file, '<style>.a { padding: 7px; border: 2px solid; margin: 1px; max-width: 220px; }</style>'))
      .toEqual(['/lib/components/Example.svelte: padding: 7px', '/lib/components/Example.svelte: max-width: 220px']);
    // A layout dimension is allowed only where it is named.
    expect(rawPx(join(src, 'lib/features/reusable/Library.svelte'), '.cols { grid-template-columns: 220px 1fr; }')).toEqual([]);
  });
});
