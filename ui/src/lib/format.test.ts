import { afterEach, describe, expect, it } from 'vitest';
import { countdown, dollars, relativeTime, tokens } from './format';
import { speak } from './i18n';

describe('format', () => {
  afterEach(() => speak('en'));

  it('says how long ago in plain words', () => {
    const now = 1_000_000_000;
    expect(relativeTime(now - 5_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min. ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 hr. ago');
    expect(relativeTime(now - 86_400_000, now)).toBe('yesterday');
    expect(relativeTime(now - 4 * 86_400_000, now)).toBe('4 days ago');
    expect(relativeTime(null, now)).toBe('never');
  });

  it('counts down to a time', () => {
    expect(countdown(3_725_000, 0)).toBe('1 hr 02 min');
    expect(countdown(65_000, 0)).toBe('1 min 05 sec');
    expect(countdown(-5, 0)).toBe('0 sec');
  });

  it('shows money and tokens', () => {
    expect(dollars(25)).toBe('$25.00');
    expect(dollars(1.5)).toBe('$1.50');
    expect(dollars(0.004)).toBe('< $0.01');
    expect(tokens(12_345)).toBe('12.3k');
    expect(tokens(2_000_000)).toBe('2.0M');
    expect(tokens(999)).toBe('999');
  });

  it('speaks German when the page does', () => {
    speak('de');
    const now = 1_000_000_000;
    expect(relativeTime(now - 5_000, now)).toBe('gerade eben');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('vor 5 Min.');
    expect(relativeTime(now - 86_400_000, now)).toBe('gestern');
    expect(relativeTime(now - 4 * 86_400_000, now)).toBe('vor 4 Tagen');
    expect(relativeTime(null, now)).toBe('nie');
    expect(countdown(3_725_000, 0)).toBe('1 Std., 02 Min.');
    expect(countdown(65_000, 0)).toBe('1 Min., 05 Sek.');
    expect(dollars(1.5)).toBe('1,50\u00a0$');
    expect(dollars(0.004)).toBe('< 0,01\u00a0$');
    expect(tokens(12_345)).toBe('12,3 Tsd.');
  });
});
