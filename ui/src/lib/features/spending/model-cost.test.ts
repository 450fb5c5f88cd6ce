import { afterEach, describe, expect, it } from 'vitest';
import { costWords, rangeWords, tierWord } from './model-cost';
import { speak } from '../../i18n';

const range = (model: string, lowUsd: number, highUsd: number, tasks: number) => ({ model, range: { lowUsd, highUsd, tasks } });

describe('what a model costs, in words', () => {
  afterEach(() => speak('en'));

  it('says the service’s cost tier and kind of model, and nothing it gives no grounds for', () => {
    expect(costWords({ id: 'v/mini', tier: 'fast', costTier: '$' })).toBe('Cheaper, quicker');
    expect(costWords({ id: 'v/big', tier: 'reasoning', costTier: '$$$' })).toBe('Costs the most, best for hard tasks');
    expect(costWords({ id: 'v/flash', tier: 'fast', costTier: 'free' })).toBe('Free, quicker');
    expect(costWords({ id: 'auto', tier: 'balanced', costTier: '$' })).toBe('The service picks the model for each task');
    expect(costWords({ id: 'v/new', tier: 'someday', costTier: '$$' })).toBe('Costs more');
    expect(costWords({ id: 'v/odd', tier: 'fast', costTier: '¤' })).toBe('');
    expect(tierWord({ id: 'v/big', costTier: '$$$' })).toBe('Costs the most');
    expect(tierWord({ id: 'auto', costTier: '$' })).toBe('');
    speak('de');
    expect(costWords({ id: 'v/mini', tier: 'fast', costTier: '$' })).toBe('Günstiger, schneller');
  });

  it('gives the range of the person’s own tasks with the model, and nothing without history', () => {
    const costs = [range('v/big', 0.02, 0.09, 4), range('v/one', 0.03, 0.03, 1), range('v/same', 0.05, 0.05, 3)];
    expect(rangeWords(costs, 'v/big')).toBe('Your tasks with this model cost $0.02–$0.09.');
    expect(rangeWords(costs, 'v/one')).toBe('Your task with this model cost $0.03.');
    expect(rangeWords(costs, 'v/same')).toBe('Your tasks with this model cost about $0.05 each.');
    expect(rangeWords(costs, 'v/never')).toBe('');
    expect(rangeWords([], 'v/big')).toBe('');
  });
});
