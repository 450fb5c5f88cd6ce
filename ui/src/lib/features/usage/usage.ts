// Usage figures as the usage panel shows them: totals and one row per model, biggest cost
// first. Missing numbers (a model that reports no cache figures) count as zero.
import type { TaskUsage, UsageFigures } from '../../api';

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
