import { describe, expect, it } from 'vitest';
import { countdown, dollars, relativeTime, tokens } from './format';

describe('format', () => {
  it('says how long ago in plain words', () => {
    const now = 1_000_000_000;
    expect(relativeTime(now - 5_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(null, now)).toBe('never');
  });

  it('counts down to a time', () => {
    expect(countdown(3_725_000, 0)).toBe('1 h 02 min');
    expect(countdown(65_000, 0)).toBe('1 min 05 s');
    expect(countdown(-5, 0)).toBe('0 s');
  });

  it('shows money and tokens', () => {
    expect(dollars(25)).toBe('$25.00');
    expect(dollars(0.004)).toBe('< $0.01');
    expect(tokens(12_345)).toBe('12.3k');
  });
});
