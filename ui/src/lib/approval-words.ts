// An approval card in words a person can decide on: what will happen, whether it destroys
// something, what the approving button says, what happens if nobody answers, and a warning
// when the card's target is not the place the task named.
//
// What the card does is read in Rust (`card_reading/` in the client crate, beside the card:
// one reading for this page and the OS notification) and arrives as `card.reading`; this file
// only puts it in words. A card Rust does not read as destructive keeps its own title and an
// ordinary Approve button.
import type { ApprovalKind, ApprovalRequest, Deletion, NamedPlace, Place } from './api';
import { t, type Key } from './i18n';

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

const KNOWN_PLACES = {
  desktop: 'approval.knownPlace.desktop',
  documents: 'approval.knownPlace.documents',
  downloads: 'approval.knownPlace.downloads',
  pictures: 'approval.knownPlace.pictures',
  photos: 'approval.knownPlace.photos',
  music: 'approval.knownPlace.music',
  videos: 'approval.knownPlace.videos',
  movies: 'approval.knownPlace.movies',
} as const satisfies Record<NonNullable<NamedPlace['known']>, Key>;

/** "Documents", "your home folder", "Documents › Invoices". */
export function placeWords(place: Place): string {
  if (place.kind === 'home') return t('approval.place.home');
  if (place.kind === 'top') return t('approval.place.top');
  return place.folders.join(' › ');
}

function list(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return t('approval.list', { rest: names.slice(0, -1).join(', '), last: names[names.length - 1] });
}

function describeDeletes(deletes: Deletion[]): { what: string; act: string } {
  const disk = deletes.find((d) => d.kind === 'disk');
  if (disk) {
    return {
      what: disk.name ? t('approval.eraseDisk', { disk: disk.name }) : t('approval.eraseDiskUnnamed'),
      act: t('approval.act.eraseDisk'),
    };
  }
  if (deletes.length === 1) {
    const { kind, name } = deletes[0];
    const place = placeWords(deletes[0].place);
    if (kind === 'folder') return { what: t('approval.deleteFolder', { name, place }), act: t('approval.act.deleteFolder') };
    if (kind === 'matching') return { what: t('approval.deleteMatching', { pattern: name, place }), act: t('approval.act.deleteFiles') };
    if (kind === 'found') return { what: t('approval.deleteFound', { place }), act: t('approval.act.deleteFiles') };
    return { what: t('approval.deleteFile', { name, place }), act: t('approval.act.deleteFile') };
  }
  const places = [...new Set(deletes.map((d) => placeWords(d.place)))];
  const names = list(deletes.map((d) => d.name));
  const count = deletes.length;
  return {
    what: places.length === 1
      ? t('approval.deleteManyIn', { count, place: places[0], names })
      : t('approval.deleteMany', { count, names }),
    act: t('approval.act.deleteMany', { count }),
  };
}

/** A place the task named, in the page's language. */
function namedWords(place: NamedPlace): string {
  return place.known ? t(KNOWN_PLACES[place.known]) : t('approval.namedFolder', { name: place.name });
}

/** The card in words, from Porthole's reading of it. */
export function describeCard(card: ApprovalRequest): CardWords {
  const { reading } = card;
  const nothingDeleted = t('approval.silence.nothingDeleted');
  if (reading.deletes.length > 0) {
    const { what, act } = describeDeletes(reading.deletes);
    const files = reading.deletes.filter((d) => d.kind !== 'disk');
    const deletes = files.length === 1
      ? t('approval.mismatch.one', { name: files[0].name, place: placeWords(files[0].place) })
      : t('approval.mismatch.elsewhere');
    const mismatch = reading.mismatch
      ? t('approval.mismatch', { places: list(reading.mismatch.map(namedWords)), what: deletes })
      : null;
    return { headline: t('approval.headline', { what }), destructive: true, act, silence: nothingDeleted, mismatch };
  }
  if (reading.destructive) {
    // Only the card's own title says it deletes: its first word names the act.
    return { headline: card.title, destructive: true, act: card.title.trim().split(/\s+/)[0].replace(/^./, (c) => c.toUpperCase()), silence: nothingDeleted, mismatch: null };
  }
  return { headline: card.title || t('approval.allowStep'), destructive: false, act: t('approval.act.approve'), silence: t('approval.silence.skips'), mismatch: null };
}

/** The thread's line for a card the agent raised, by what it asks (a permission, a choice, a
 *  web page); a deletion Porthole read is said in its own sentence, in the person's language. */
export function askedLine(asks: ApprovalKind, title: string, deletes: Deletion[]): string {
  if (asks === 'choice') return t('task.askedChoice', { title });
  if (asks === 'linkOnly') return t('task.askedWebPage', { title });
  return t('task.askedPermission', { title: deletes.length > 0 ? describeDeletes(deletes).what : title });
}
