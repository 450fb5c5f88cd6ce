// What a computer is doing now, derived in one place: the sidebar's row, the conversation's
// header and the live screen all show this value, so they never disagree. It comes from the
// machine list (the Rust core re-reads it while a computer starts) and from what the window
// learned before the list was read again: a Wake just pressed, or a live screen refused
// because the computer fell asleep.
import type { MachineRow } from './api';
import { t, type Key } from './i18n';

export type ComputerState =
  | 'online'
  /** A sleeping computer waking (asked here or elsewhere). */
  | 'waking'
  /** The free computer starting on its first task. */
  | 'starting'
  | 'freeReady'
  | 'asleep'
  /** Asleep, and the service will not wake it from here. */
  | 'cannotWake'
  | 'goingToSleep'
  | 'offline';

/** What the window saw since the list was last read. */
export type ComputerSeen = {
  /** Wake was pressed and its answer has not come back yet. */
  wakeAsked?: boolean;
  /** The live screen was refused: the computer is asleep, whatever the list still says. */
  asleepSeen?: boolean;
};

export type ComputerStatus = {
  state: ComputerState;
  /** The one word (or few) every place uses for it, in the page's language when asked. */
  words: string;
  /** Wake is offered. */
  canWake: boolean;
};

const WORDS: Record<ComputerState, Key> = {
  online: 'computer.state.online',
  waking: 'computer.state.waking',
  starting: 'computer.state.starting',
  freeReady: 'computer.state.freeReady',
  asleep: 'computer.state.asleep',
  cannotWake: 'computer.state.cannotWake',
  goingToSleep: 'computer.state.goingToSleep',
  offline: 'computer.state.offline',
};

function stateOf(row: MachineRow | null | undefined, seen: ComputerSeen): ComputerState {
  if (!row) return 'offline';
  const asleep = row.canWake ? 'asleep' : 'cannotWake';
  switch (row.availability) {
    case 'starting':
      return row.freeComputer ? 'starting' : 'waking';
    case 'asleep':
    case 'goingToSleep':
      if (seen.wakeAsked) return 'waking';
      // On its way to sleep, yet the live screen was already refused: asleep for the person.
      return row.availability === 'asleep' || seen.asleepSeen ? asleep : 'goingToSleep';
    case 'online':
      // The list is read now and then; the live screen learns first that it fell asleep.
      // Whether it can be woken is not known from an awake row: Wake is offered, and a
      // refusal is said when it comes.
      if (seen.wakeAsked) return 'waking';
      return seen.asleepSeen ? 'asleep' : 'online';
    case 'freeReady':
      return 'freeReady';
    case 'offline':
      return 'offline';
  }
}

export function computerStatus(row: MachineRow | null | undefined, seen: ComputerSeen = {}): ComputerStatus {
  const state = stateOf(row, seen);
  return { state, words: t(WORDS[state]), canWake: state === 'asleep' };
}

/** Not usable for watching or working right now, for a reason the person can see. */
export function isAway(state: ComputerState): boolean {
  return state !== 'online' && state !== 'freeReady';
}

/** What the live screen, the sidebar and the header take: one computer's status, waking it,
 * and telling what the live screen learned. AppState is the one that keeps it. */
export interface Computers {
  status(machineId: string): ComputerStatus;
  wake(machineId: string): Promise<void>;
  liveSaw(machineId: string, what: 'asleep' | 'live'): void;
}
