// An approval card in words a person can decide on: what will happen, whether it destroys
// something, what the approving button says, what happens if nobody answers, and a warning
// when the card's target is not the place the task named.
//
// The service's card has no "destructive" field (its fields are a title, a description, an
// approval type, a command and a folder), so destruction is read from the command itself.
// Only a short list of well-known deleting commands is read (rm, rmdir, unlink, shred,
// find -delete, del/erase/rd, Remove-Item, and disk wipes); anything else keeps the card's own
// title and an ordinary Approve button. Hand-written because no maintained library turns a
// shell command into a sentence, and this reading must stay small enough to check by eye: a
// command it does not know is never guessed at, only its title is shown.
import type { ApprovalRequest } from './api';
import { t, type Key } from './i18n';
import { english } from './i18n/catalog';
// Only German's approval words, not its whole catalog (a chunk loaded for German readers
// alone): a task may name a folder in German whatever language the page speaks.
import approvalDe from '../../../locales/de/approval.json';

export type CardWords = {
  /** What will happen, as a sentence. */
  headline: string;
  /** Approving destroys something that cannot be brought back. */
  destructive: boolean;
  /** The approving button: names the act for destructive steps ("Delete folder"). */
  act: string;
  /** What happens when nobody answers, after "If you don’t answer within N s, ". */
  silence: string;
  /** Set when the target is not in the place the task named. */
  mismatch: string | null;
};

type Target = { path: string[]; raw: string; kind: 'folder' | 'file' | 'matching' | 'disk' };

// Folders people name by their everyday name; a task that names one expects the work there.
// A task may name one in either language ("Documents", "Dokumente"), a folder on disk may be
// called either, and the warning names it in the page's language.
const KNOWN_PLACES = {
  desktop: 'approval.knownPlace.desktop',
  documents: 'approval.knownPlace.documents',
  downloads: 'approval.knownPlace.downloads',
  pictures: 'approval.knownPlace.pictures',
  photos: 'approval.knownPlace.photos',
  music: 'approval.knownPlace.music',
  videos: 'approval.knownPlace.videos',
  movies: 'approval.knownPlace.movies',
} as const satisfies Record<string, Key>;
type KnownPlace = keyof typeof KNOWN_PLACES;

/** Every name a well-known folder goes by, lower case: its English and its German name. */
function namesOf(place: KnownPlace): string[] {
  const name = (approval: typeof english.approval) => approval[`knownPlace.${place}`].toLowerCase();
  return [...new Set([place, name(english.approval), name(approvalDe)])];
}

function knownPlace(word: string): KnownPlace | undefined {
  return (Object.keys(KNOWN_PLACES) as KnownPlace[]).find((place) => namesOf(place).includes(word));
}

/** Splits a command into words the way a POSIX shell does for plain quoting ('', "" and \). */
export function shellWords(command: string): string[][] {
  const commands: string[][] = [[]];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  const end = () => {
    if (inWord) commands[commands.length - 1].push(word);
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      end();
    } else if (c === ';' || c === '|' || c === '&') {
      // `a && b`, `a; b`, `a | b`: each command is read on its own.
      end();
      while (command[i + 1] === c) i++;
      commands.push([]);
    } else {
      word += c;
      inWord = true;
    }
  }
  end();
  return commands.filter((c) => c.length > 0);
}

// `sudo rm …`, `env X=1 rm …`: the command that runs is the one after these.
function withoutWrappers(words: string[]): string[] {
  let w = words;
  for (;;) {
    const first = w[0]?.toLowerCase();
    if (first === 'sudo' || first === 'command' || first === 'nice' || first === 'doas') {
      w = w.slice(1);
      while (w[0]?.startsWith('-')) w = w.slice(1);
    } else if (first === 'env' || (first && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first))) {
      w = w.slice(1);
    } else {
      return w;
    }
  }
}

function splitPath(p: string): string[] {
  return p.split(/[\\/]+/).filter((s) => s.length > 0);
}

/** A path as components from the root, with `~` and a relative path resolved against `cwd`. */
function resolve(raw: string, cwd: string | null, home: string[]): string[] {
  let parts: string[];
  if (raw === '~' || raw.startsWith('~/') || raw.startsWith('$HOME')) {
    parts = [...home, ...splitPath(raw.replace(/^(~|\$HOME)/, ''))];
  } else if (raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw)) {
    parts = splitPath(raw);
  } else {
    parts = [...splitPath(cwd ?? ''), ...splitPath(raw)];
  }
  const out: string[] = [];
  for (const p of parts) {
    if (p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return out;
}

/** The home folder a path is in: /home/<name>, /Users/<name>, C:\Users\<name>, /root. */
function homeOf(parts: string[]): number {
  const lower = parts.map((p) => p.toLowerCase());
  if (lower[0] === 'root') return 1;
  const i = lower.findIndex((p) => p === 'home' || p === 'users');
  return i >= 0 && i <= 1 && parts.length > i + 1 ? i + 2 : -1;
}

function deletions(words: string[], cwd: string | null): Target[] | null {
  const w = withoutWrappers(words);
  const cmd = (w[0] ?? '').toLowerCase().replace(/^.*[\\/]/, '');
  const args = w.slice(1);
  const cwdParts = splitPath(cwd ?? '');
  const h = homeOf(cwdParts);
  // Without a folder to go by, `~` is "your home folder" all the same.
  const homeParts = h > 0 ? cwdParts.slice(0, h) : ['home', 'you'];
  const targets = (names: string[], kind: Target['kind']): Target[] =>
    names.map((raw) => ({
      raw,
      path: resolve(raw, cwd, homeParts),
      kind: /[*?[]/.test(raw) ? 'matching' : raw.endsWith('/') && kind === 'file' ? 'folder' : kind,
    }));
  const operands = (list: string[], flag: (f: string) => boolean) => {
    const out: string[] = [];
    let flags = true;
    for (const a of list) {
      if (flags && a === '--') flags = false;
      else if (flags && flag(a)) continue;
      else out.push(a);
    }
    return out;
  };
  const unixFlag = (a: string) => a.startsWith('-');
  switch (cmd) {
    case 'rm': {
      const recursive = args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive');
      return targets(operands(args, unixFlag), recursive ? 'folder' : 'file');
    }
    case 'rmdir':
      return targets(operands(args, unixFlag), 'folder');
    case 'unlink':
    case 'shred':
      return targets(operands(args, unixFlag), 'file');
    case 'find':
      if (!args.includes('-delete')) return null;
      return targets([args[0] && !args[0].startsWith('-') ? args[0] : '.'], 'matching');
    case 'del':
    case 'erase':
      return targets(operands(args, (a) => a.startsWith('/')), 'file');
    case 'rd':
      return targets(operands(args, (a) => a.startsWith('/')), 'folder');
    case 'remove-item':
    case 'ri': {
      const recursive = args.some((a) => /^-recurse$/i.test(a));
      return targets(operands(args, unixFlag), recursive ? 'folder' : 'file');
    }
    case 'mkfs':
    case 'wipefs':
    case 'format':
      return [{ raw: args[args.length - 1] ?? '', path: [], kind: 'disk' }];
    case 'dd': {
      const of = args.find((a) => a.startsWith('of=/dev/'));
      return of ? [{ raw: of.slice(3), path: [], kind: 'disk' }] : null;
    }
    default:
      return cmd.startsWith('mkfs.') ? [{ raw: args[args.length - 1] ?? '', path: [], kind: 'disk' }] : null;
  }
}

/** "Documents", "your home folder", "Documents › Invoices". */
function placeWords(path: string[]): string {
  const parent = path.slice(0, -1);
  const h = homeOf(parent);
  if (h >= 0 && parent.length === h) return t('approval.place.home');
  if (parent.length === 0) return t('approval.place.top');
  const inHome = h >= 0 ? parent.slice(h) : parent;
  return inHome.slice(-2).join(' › ');
}

function nameOf(target: Target): string {
  return target.path[target.path.length - 1] ?? target.raw;
}

function list(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return t('approval.list', { rest: names.slice(0, -1).join(', '), last: names[names.length - 1] });
}

function describeTargets(targets: Target[]): { what: string; act: string } {
  if (targets.some((target) => target.kind === 'disk')) {
    const disk = targets[0].raw.trim();
    return {
      what: disk ? t('approval.eraseDisk', { disk }) : t('approval.eraseDiskUnnamed'),
      act: t('approval.act.eraseDisk'),
    };
  }
  if (targets.length === 1) {
    const target = targets[0];
    const place = placeWords(target.path);
    const name = nameOf(target);
    if (target.kind === 'folder') {
      return { what: t('approval.deleteFolder', { name, place }), act: t('approval.act.deleteFolder') };
    }
    if (target.kind === 'matching' && /[*?[]/.test(name)) {
      return { what: t('approval.deleteMatching', { pattern: name, place }), act: t('approval.act.deleteFiles') };
    }
    if (target.kind === 'matching') {
      // `find DIR … -delete`: the files it finds in DIR.
      const inside = placeWords([...target.path, '']);
      return { what: t('approval.deleteFound', { place: inside }), act: t('approval.act.deleteFiles') };
    }
    return { what: t('approval.deleteFile', { name, place }), act: t('approval.act.deleteFile') };
  }
  const places = [...new Set(targets.map((target) => placeWords(target.path)))];
  const names = list(targets.map(nameOf));
  const count = targets.length;
  return {
    what: places.length === 1
      ? t('approval.deleteManyIn', { count, place: places[0], names })
      : t('approval.deleteMany', { count, names }),
    act: t('approval.act.deleteMany', { count }),
  };
}

const stem = (w: string) => w.toLowerCase().replace(/s$/, '');
const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** A place a task names: what it is called on disk (any of `words`), and how a warning says it. */
type Named = { words: string[]; shown: string; known: boolean };

// Words the folder patterns below catch that are not a folder's name (English and German).
const NOT_A_NAME = ['the', 'a', 'this', 'that', 'my', 'your', 'old', 'new', 'in', 'of', 'to', 'from', 'and',
  'den', 'dem', 'der', 'die', 'das', 'im', 'mein', 'meinem', 'meinen', 'deinem', 'alten', 'neuen', 'namens'];

function named(task: string): Named[] {
  const found: Named[] = [];
  const seen = new Set<KnownPlace>();
  for (const w of wordsOf(task)) {
    const place = knownPlace(w);
    if (place && !seen.has(place)) {
      seen.add(place);
      found.push({ words: namesOf(place), shown: t(KNOWN_PLACES[place]), known: true });
    }
  }
  const lower = task.toLowerCase();
  const before = /(?:^|\s)(?:the\s+|my\s+|our\s+)?(?:old\s+|new\s+)?[“"'„]?([\p{L}\p{N}][\p{L}\p{N}_.-]*)[”"'“]?\s+folder\b/gu;
  const after = /\b(?:folder|ordner)\s+(?:called\s+|named\s+|namens\s+)?[“"'„]?([\p{L}\p{N}][\p{L}\p{N}_.-]*)[”"'“]?/gu;
  for (const re of [before, after]) {
    for (const m of lower.matchAll(re)) {
      const name = m[1];
      if (NOT_A_NAME.includes(name)) continue;
      if (!found.some((n) => n.words.some((w) => stem(w) === stem(name)))) {
        found.push({ words: [name], shown: name, known: false });
      }
    }
  }
  return found;
}

/** The places a task names: well-known folders (in the page's language), and "the X folder" /
 * "folder X" / "Ordner X". */
export function placesNamed(task: string): string[] {
  return named(task).map((n) => n.shown);
}

function inPlace(path: string[], words: string[]): boolean {
  return words.some((word) => {
    const want = stem(word);
    return path.some((part) => wordsOf(part).some((w) => stem(w) === want) || stem(part) === want);
  });
}

/** The card in words, given the words of the task it is part of. */
export function describeCard(card: ApprovalRequest, task: string): CardWords {
  const commands = card.command ? shellWords(card.command) : [];
  const targets = commands.flatMap((c) => deletions(c, card.cwd) ?? []);
  const titleSaysDelete = /^\s*(delete|remove|erase|wipe|destroy|empty the trash)\b/i.test(card.title);
  if (targets.length > 0) {
    const { what, act } = describeTargets(targets);
    const places = named(task);
    const files = targets.filter((t) => t.kind !== 'disk');
    const astray = places.length > 0 && files.length > 0
      && files.some((t) => !places.some((place) => inPlace(t.path, place.words)));
    const namedWords = list(places.map((n) => (n.known ? n.shown : t('approval.namedFolder', { name: n.shown }))));
    const deletes = files.length === 1
      ? t('approval.mismatch.one', { name: nameOf(files[0]), place: placeWords(files[0].path) })
      : t('approval.mismatch.elsewhere');
    const mismatch = astray ? t('approval.mismatch', { places: namedWords, what: deletes }) : null;
    return { headline: t('approval.headline', { what }), destructive: true, act, silence: t('approval.silence.nothingDeleted'), mismatch };
  }
  if (titleSaysDelete) {
    return { headline: card.title, destructive: true, act: card.title.trim().split(/\s+/)[0].replace(/^./, (c) => c.toUpperCase()), silence: t('approval.silence.nothingDeleted'), mismatch: null };
  }
  return { headline: card.title || t('approval.allowStep'), destructive: false, act: t('approval.act.approve'), silence: t('approval.silence.skips'), mismatch: null };
}
