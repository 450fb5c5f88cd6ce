// What a model choice costs, in words: from the service's own tiers (its `costTier`, the
// relative credit cost per task, and its `tier`), and the range of the person's own earlier
// tasks with it (summed in the core, crates/core/src/conversations/money.rs). Nothing is said
// that the model list gives no grounds for: an unknown tier says nothing.
import type { Model, ModelCost } from '../../api';
import { dollars } from '../../format';
import { t, type Key } from '../../i18n';

const COST: Record<string, Key> = {
  free: 'composer.cost.free',
  $: 'composer.cost.low',
  $$: 'composer.cost.medium',
  $$$: 'composer.cost.high',
};

const SPEED: Record<string, Key> = {
  fast: 'composer.speed.fast',
  balanced: 'composer.speed.balanced',
  reasoning: 'composer.speed.reasoning',
};

/** "Cheaper, quicker" / "Costs the most, best for hard tasks"; `auto` says the service picks. */
export function costWords(model: Pick<Model, 'id' | 'tier' | 'costTier'>): string {
  if (model.id === 'auto') return t('composer.cost.auto');
  const cost = COST[model.costTier];
  const speed = SPEED[model.tier];
  if (cost && speed) return t('composer.cost.words', { cost: t(cost), speed: t(speed) });
  return cost ? t(cost) : '';
}

/** The option's short word: "Cheaper", "Costs the most"; none for `auto` or an unknown tier. */
export function tierWord(model: Pick<Model, 'id' | 'costTier'>): string {
  const cost = COST[model.costTier];
  return model.id === 'auto' || !cost ? '' : t(cost);
}

/** "Your tasks with this model cost $0.02–$0.09"; empty without history. */
export function rangeWords(costs: ModelCost[], modelId: string): string {
  const range = costs.find((c) => c.model === modelId)?.range;
  if (!range || range.tasks === 0 || range.lowUsd == null || range.highUsd == null) return '';
  const low = dollars(range.lowUsd);
  const high = dollars(range.highUsd);
  if (range.tasks === 1) return t('composer.cost.rangeOne', { cost: low });
  return low === high ? t('composer.cost.rangeSame', { cost: low }) : t('composer.cost.range', { low, high });
}
