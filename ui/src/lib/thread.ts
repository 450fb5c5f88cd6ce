// Groups the agent's running commentary (narration, progress, tool activity) into blocks
// that fold away, so messages and answers stand out. A finished answer leads: the steps that
// led to it fold under it ("How I did it").
import type { Conversation, ThreadItem } from './api';
import { t } from './i18n';

export type Block =
  | { kind: 'steps'; items: ThreadItem[] }
  | { kind: 'item'; item: ThreadItem }
  | { kind: 'answer'; item: ThreadItem; steps: ThreadItem[] };

const STEP_KINDS = new Set(['narration', 'progress', 'tool', 'toolFailed', 'status']);

export function groupSteps(items: ThreadItem[]): Block[] {
  const blocks: Block[] = [];
  for (const item of items) {
    const last = blocks[blocks.length - 1];
    if (STEP_KINDS.has(item.kind)) {
      if (last?.kind === 'steps') last.items.push(item);
      else blocks.push({ kind: 'steps', items: [item] });
    } else if (item.kind === 'answer') {
      // The steps just before an answer are how it was found: they go under it.
      if (last?.kind === 'steps') blocks[blocks.length - 1] = { kind: 'answer', item, steps: last.items };
      else blocks.push({ kind: 'answer', item, steps: [] });
    } else {
      blocks.push({ kind: 'item', item });
    }
  }
  return blocks;
}

/**
 * How many steps the agent took: one per tool call, the same count the Steps view shows for
 * a recorded task (each step there is one call). Narration and progress lines are not steps.
 */
export function stepCount(items: ThreadItem[]): number {
  return items.filter((i) => i.kind === 'tool').length;
}

/** "3 steps", "1 step". */
export function stepsWords(n: number): string {
  return t('task.steps', { count: n });
}

/**
 * The person's words of the task now under way: the message that started it and any added
 * to it while it ran. An approval card is read against them.
 */
export function taskWords(items: ThreadItem[]): string {
  const words: string[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind !== 'user') continue;
    words.unshift(item.text);
    if (!item.joined) break;
  }
  return words.join('\n');
}

/**
 * The agent's latest narration line while its task runs: what the live screen shows, said in
 * words for a screen reader (TaskPanel's polite live region). Empty when the task is not
 * running or the agent has said nothing yet.
 */
export function latestNarration(items: ThreadItem[], running: boolean): string {
  if (!running) return '';
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'narration') return item.text;
    // A line from before the message that started this task belongs to an earlier task.
    if (item.kind === 'user' && !item.joined) return '';
  }
  return '';
}

/** A conversation's title as shown: its own (its first message's first line), or, before it
 * has one, "New conversation" in the person's language (saved empty, never as words). */
export function conversationTitle(title: string | null | undefined): string {
  return title?.trim() ? title : t('common.untitledConversation');
}

/**
 * The cards the agent waits on, as the thread and the full-screen live view both draw them:
 * the approval, the question near the cap and the "it seems stuck" question, each only while
 * its task still runs (as Rust keeps them open).
 */
export function waitingCards(conversation: Conversation | null) {
  const live = !!conversation && !conversation.stopping &&
    (conversation.status === 'running' || conversation.status === 'needsApproval');
  return {
    approval: conversation?.pendingApproval ?? null,
    capQuestion: live ? (conversation?.capQuestion ?? null) : null,
    stuck: live ? (conversation?.stuck?.asking ?? null) : null,
  };
}

/**
 * The step the agent is on in the task now under way: its number within this task (counted
 * as `stepCount` counts, one per tool call) and its words (the tool's title, else the latest
 * narration). Zero and empty before the first step.
 */
export function currentStep(items: ThreadItem[]): { number: number; words: string } {
  let number = 0;
  let words = '';
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'user' && !item.joined) break;
    if (item.kind === 'tool') {
      number++;
      if (!words && item.title) words = item.title;
    } else if (item.kind === 'narration' && !words) {
      words = item.text;
    }
  }
  return { number, words };
}
