// What the open conversation's task is, said once: the header chip, the composer's mode, Stop,
// "Check now" and the actions under an answer all read this one value, so no two of them can
// disagree (a "Ready" chip over "the agent may still be working", a green "Done" over "you
// declined", "Save as reusable" under a declined task).
import type { ApprovalKind, Conversation, TaskStatus, ThreadItem } from './api';
import { isAway, type ComputerStatus } from './computer-state';
import { dollars } from './format';
import { t, type Key } from './i18n';

/** The chip's look: a task state, or the computer's own state while no task runs. */
export type ChipTone = TaskStatus | 'checking' | 'reconnecting' | 'declined' | 'computer';

export type TaskView = {
  chip: {
    words: string;
    tone: ChipTone;
    /** The task's status as the service and Rust have it (tests wait on it). */
    status: TaskStatus;
    /** The computer's state (the same the sidebar and the live screen show); the chip says
     * it in words when `tone` is `computer`. */
    computer: ComputerStatus | null;
  };
  /** Stop is offered: a task runs, or may still run (its updates were lost). */
  stop: boolean;
  /** Stop was pressed and the service has not answered yet. */
  stopping: boolean;
  /** "Check now" is offered: the task's updates were lost, and reading the service's history
   * again is how its end is learned. */
  checkNow: boolean;
  /** What Send does: start a task, add to the running one, or (an earlier conversation, which
   * the service no longer takes messages into) ask in a new conversation. */
  composer: 'send' | 'addToTask' | 'newConversation';
  /** The task ended as asked: saving it as a saved task or scheduling it makes sense. Never
   * for a declined or failed task, which would repeat what did not happen. */
  offerReuse: boolean;
  /** The person declined a card of this task, so what it asked for did not happen. */
  declined: boolean;
  /** What the task cost, as the header and the live screen's "now" bar say it: "$0.12 so far"
   * while it runs ("$0.12 of $1.00" with a cap), the amount once it ended; `null` before its
   * first model call. */
  cost: { words: string; spent: number; cap: number | null; running: boolean } | null;
};

const WORDS: Record<TaskStatus, Key> = {
  idle: 'shell.status.idle',
  running: 'shell.status.running',
  needsApproval: 'shell.status.needsApproval',
  succeeded: 'shell.status.succeeded',
  failed: 'shell.status.failed',
  stopped: 'shell.status.stopped',
};

/** A waiting card's chip asks for what the card asks, as its kicker does. */
const ASKS: Record<ApprovalKind, Key> = {
  yesNo: 'shell.status.needsApproval',
  choice: 'shell.status.needsAnswer',
  linkOnly: 'shell.status.needsWebPage',
};

/** The items of the last task: from the message that started it (not one joined to it). */
export function lastTaskItems(items: ThreadItem[]): ThreadItem[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'user' && !item.joined) return items.slice(i);
  }
  return items;
}

/** The person declined a card of the last task. */
export function declinedIn(items: ThreadItem[]): boolean {
  return lastTaskItems(items).some((i) => i.kind === 'notice' && i.what === 'denied');
}

/**
 * The one state of the open conversation's task. `computer`: the computer's state (the same
 * one the sidebar and the live screen show); `earlier`: the conversation is not the
 * computer's current one.
 */
export function taskView(
  c: Conversation | null,
  computer: ComputerStatus | null = null,
  earlier = false,
): TaskView {
  const status: TaskStatus = c?.status ?? 'idle';
  const active = status === 'running' || status === 'needsApproval';
  // Lost updates leave the task idle in Rust (nothing is followed), yet the agent may work on.
  const checking = !active && status !== 'stopped' && (c?.updatesLost ?? false);
  const declined = status === 'succeeded' && c !== null && declinedIn(c.items);
  // While no task runs (or one waits for the computer to wake) the chip says how the
  // computer is: never "Ready" beside a computer that is asleep or has not started yet.
  const away =
    computer !== null &&
    !checking &&
    (isAway(computer.state) || computer.state === 'freeReady') &&
    (status === 'idle' ||
      (status === 'running' && (computer.state === 'waking' || computer.state === 'starting')));
  let chip: TaskView['chip'];
  if (away) chip = { words: computer.words, tone: 'computer', status, computer };
  else if (checking) chip = { words: t('task.checking'), tone: 'checking', status, computer };
  else if (declined) chip = { words: t('task.declinedChip'), tone: 'declined', status, computer };
  else if (status === 'running' && c?.reconnecting)
    chip = { words: t('shell.status.reconnecting'), tone: 'reconnecting', status, computer };
  else if (status === 'needsApproval' && c?.pendingApproval)
    chip = { words: t(ASKS[c.pendingApproval.kind]), tone: status, status, computer };
  else chip = { words: t(WORDS[status]), tone: status, status, computer };
  return {
    chip,
    stop: active || checking,
    stopping: c?.stopping ?? false,
    checkNow: checking,
    composer: earlier ? 'newConversation' : active ? 'addToTask' : 'send',
    offerReuse: status === 'succeeded' && !declined,
    declined,
    cost: costOf(c, active),
  };
}

function costOf(c: Conversation | null, running: boolean): TaskView['cost'] {
  if (!c?.usage) return null;
  const spent = c.usage.costUsd ?? 0;
  const cap = running ? (c.capUsd ?? null) : null;
  const words = !running
    ? dollars(spent)
    : cap !== null
      ? t('usage.ofCap', { spent: dollars(spent), cap: dollars(cap) })
      : t('live.now.soFar', { cost: dollars(spent) });
  return { words, spent, cap, running };
}
