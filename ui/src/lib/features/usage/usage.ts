// Usage figures as the usage popover shows them: money first (this task, the conversation,
// the costliest task), tokens and models only in its details. Missing numbers (a model that
// reports no cache figures) count as zero. The header and the popover take their dollars from
// here, so the two never disagree.
import type { TaskUsage, UsageFigures, UsageView } from '../../api';
import { dollars } from '../../format';
import { t } from '../../i18n';

export interface UsageRow {
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheTokens: number;
  costUsd: number;
  modelCalls: number;
}

export function row(model: string, f: UsageFigures): UsageRow {
  return {
    model,
    inputTokens: f.inputTokens ?? 0,
    outputTokens: f.outputTokens ?? 0,
    cacheTokens: (f.cacheReadTokens ?? 0) + (f.cacheWriteTokens ?? 0),
    costUsd: f.costUsd ?? 0,
    modelCalls: f.modelCalls ?? 0,
  };
}

export function byModel(usage: TaskUsage): UsageRow[] {
  return Object.entries(usage.byModel ?? {})
    .map(([model, f]) => row(model, f))
    .sort((a, b) => b.costUsd - a.costUsd || b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens));
}

/** Each row's share of the largest, 0..1, by cost (by tokens when nothing cost anything). */
export function shares(rows: UsageRow[]): number[] {
  const costly = rows.some((r) => r.costUsd > 0);
  const value = (r: UsageRow) => (costly ? r.costUsd : r.inputTokens + r.outputTokens);
  const max = Math.max(0, ...rows.map(value));
  return rows.map((r) => (max > 0 ? value(r) / max : 0));
}

/** Dollars as every usage figure shows them: the same words in the header and the popover. */
export function cost(usd: number): string {
  return dollars(usd);
}

/** What a task cost so far, as the header shows it; `null` before its first model call. */
export function taskCost(usage: TaskUsage | null): number | null {
  return usage ? (usage.costUsd ?? 0) : null;
}

/**
 * The conversation's cost: the service's figure for the whole session when it gave one, else
 * its tasks added up.
 */
export function conversationCost(session: TaskUsage | null, tasks: TaskRow[]): number | null {
  if (session) return session.costUsd ?? 0;
  return tasks.length ? (sum(tasks.map((t) => t.usage)).costUsd ?? 0) : null;
}

/** The costliest of several tasks, when one stands out (over half the total). */
export function costliest(tasks: TaskRow[]): TaskRow | null {
  if (tasks.length < 2) return null;
  const total = tasks.reduce((t, r) => t + (r.usage.costUsd ?? 0), 0);
  const top = tasks.reduce((a, b) => ((b.usage.costUsd ?? 0) > (a.usage.costUsd ?? 0) ? b : a));
  return total > 0 && (top.usage.costUsd ?? 0) > total / 2 ? top : null;
}

/** A model's id as a name: "anthropic/claude-sonnet-4" → "Claude Sonnet 4". */
export function modelName(id: string): string {
  const name = id.split('/').pop() ?? id;
  return name
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** One task of the conversation as the panel lists it. */
export type TaskRow = UsageView['tasks'][number];

/**
 * The tasks to list: what the core kept, with the running task's figures taken from the live
 * conversation (the core's copy is only as fresh as the last read). A running task the core
 * has not kept yet is added at the end.
 */
export function currentTasks(kept: TaskRow[], live: TaskUsage | null, running: boolean): TaskRow[] {
  if (!running) return kept.map((t) => ({ ...t, running: false }));
  const rows = kept.map((t) => (t.running && live ? { ...t, usage: live } : t));
  if (live && !rows.some((t) => t.running)) {
    rows.push({ turnId: 'running', task: t('usage.thisTask'), usage: live, running: true });
  }
  return rows;
}

/** The sum of several tasks, by model too. */
export function sum(usages: TaskUsage[]): TaskUsage {
  const add = (a: UsageFigures, b: UsageFigures): UsageFigures => ({
    inputTokens: (a.inputTokens ?? 0) + (b.inputTokens ?? 0),
    outputTokens: (a.outputTokens ?? 0) + (b.outputTokens ?? 0),
    cacheReadTokens: (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0),
    cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0),
    costUsd: (a.costUsd ?? 0) + (b.costUsd ?? 0),
    modelCalls: (a.modelCalls ?? 0) + (b.modelCalls ?? 0),
  });
  const total: TaskUsage = { ...usages.reduce<UsageFigures>((t, u) => add(t, u), {}), byModel: {} };
  for (const u of usages) {
    for (const [model, f] of Object.entries(u.byModel ?? {})) {
      total.byModel![model] = add(total.byModel![model] ?? {}, f);
    }
  }
  return total;
}
