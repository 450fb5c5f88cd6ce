import { describe, expect, it } from 'vitest';
import { checkOf } from './kept';
import type { Judgement } from '../../api';

const judgement = (verdict: string, criteria: { verdict: string; score?: number }[] = []): Judgement =>
  ({ judgementId: 'j', verdict, criteria }) as Judgement;

describe('the check a receipt reads its outcome from', () => {
  it('counts the criteria shown as passed, of those the service could tell', () => {
    expect(checkOf(judgement('failed', [{ verdict: 'passed', score: 0.9 }, { verdict: 'failed', score: 0.1 }])))
      .toEqual({ passed: 1, of: 2 });
    // "Not sure" is not a pass; what the service could not tell is left out.
    expect(checkOf(judgement('passed', [{ verdict: 'passed', score: 0.5 }, { verdict: 'unverifiable' }])))
      .toEqual({ passed: 0, of: 1 });
    expect(checkOf(judgement('passed'))).toEqual({ passed: 1, of: 1 });
    expect(checkOf(judgement('unverifiable'))).toBeNull();
  });
});
