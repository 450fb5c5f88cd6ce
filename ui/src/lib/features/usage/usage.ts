// Usage figures as the usage panel shows them: totals and one row per model, biggest cost
// first. Missing numbers (a model that reports no cache figures) count as zero.
import type { TaskUsage, UsageFigures, UsageView } from '../../api';

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

/** Small costs with enough digits to tell tasks apart. */
export function cost(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
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
    rows.push({ turnId: 'running', task: 'This task', usage: live, running: true });
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
