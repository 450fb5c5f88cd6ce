import { describe, expect, it } from 'vitest';
import { shownOverall, shownVerdict } from './verdict';

describe('shownVerdict', () => {
  it('never reads "passed" under 0.7 likelihood', () => {
    expect(shownVerdict('passed', 0.95)).toBe('passed');
    expect(shownVerdict('passed', 0.7)).toBe('passed');
    expect(shownVerdict('passed', 0.67)).toBe('unsure');
    expect(shownVerdict('passed', 0.53)).toBe('unsure');
    expect(shownVerdict('passed', null)).toBe('passed');
    expect(shownVerdict('failed', 0.67)).toBe('unsure');
    expect(shownVerdict('failed', 0.2)).toBe('failed');
    expect(shownVerdict('unverifiable', 0.5)).toBe('unverifiable');
  });

  it('a judgement is only as sure as its checks', () => {
    expect(shownOverall('passed', [{ verdict: 'passed', score: 0.9 }])).toBe('passed');
    expect(shownOverall('passed', [{ verdict: 'passed', score: 0.9 }, { verdict: 'passed', score: 0.55 }])).toBe('unsure');
    expect(shownOverall('failed', [{ verdict: 'failed', score: 0.67 }])).toBe('unsure');
    expect(shownOverall('failed', [{ verdict: 'failed', score: 0.67 }, { verdict: 'failed', score: 0.1 }])).toBe('failed');
    expect(shownOverall('unverifiable', [{ verdict: 'passed', score: 0.55 }])).toBe('unverifiable');
  });
});
