import { afterEach, describe, expect, it } from 'vitest';
import { speak } from './language.svelte';
import { ago, duration, inHours, isNow, milliseconds, seconds, ticking } from './intl';

const now = 1_800_000_000_000;
const before = (s: number) => now - s * 1000;

describe('how long ago, by Intl', () => {
  afterEach(() => speak('en'));

  it('goes from now to minutes at 45 s, to hours at 60 min, to days at 24 h, then months and years', () => {
    expect(ago(before(44), now)).toBe('now');
    expect(isNow(before(44), now)).toBe(true);
    expect(ago(before(45), now)).toBe('1 min. ago');
    expect(isNow(before(45), now)).toBe(false);
    expect(ago(before(59 * 60), now)).toBe('59 min. ago');
    expect(ago(before(60 * 60), now)).toBe('1 hr. ago');
    expect(ago(before(23 * 3600), now)).toBe('23 hr. ago');
    expect(ago(before(24 * 3600), now)).toBe('yesterday');
    expect(ago(before(4 * 86_400), now)).toBe('4 days ago');
    expect(ago(before(29 * 86_400), now)).toBe('29 days ago');
    expect(ago(before(30 * 86_400), now)).toBe('last mo.');
    expect(ago(before(100 * 86_400), now)).toBe('3 mo. ago');
    expect(ago(before(800 * 86_400), now)).toBe('2 yr. ago');
  });

  it('says the same in German', () => {
    speak('de');
    expect(ago(before(44), now)).toBe('jetzt');
    expect(ago(before(45), now)).toBe('vor 1 Min.');
    expect(ago(before(59 * 60), now)).toBe('vor 59 Min.');
    expect(ago(before(60 * 60), now)).toBe('vor 1 Std.');
    expect(ago(before(23 * 3600), now)).toBe('vor 23 Std.');
    expect(ago(before(24 * 3600), now)).toBe('gestern');
    expect(ago(before(4 * 86_400), now)).toBe('vor 4 Tagen');
    expect(ago(before(30 * 86_400), now)).toBe('letzten Monat');
    expect(ago(before(800 * 86_400), now)).toBe('vor 2 Jahren');
  });

  it('words it at the width asked', () => {
    expect(ago(before(5 * 60), now, 'long')).toBe('5 minutes ago');
    speak('de');
    expect(ago(before(5 * 60), now, 'long')).toBe('vor 5 Minuten');
  });

  it('calls a time ahead of the clock, zero or nonsense "now" rather than failing', () => {
    expect(ago(now + 3_600_000, now)).toBe('now');
    expect(isNow(now + 3_600_000, now)).toBe(true);
    expect(ago(0, 0)).toBe('now');
    expect(ago(Number.NaN, now)).toBe('now');
  });
});

describe('durations, by Intl', () => {
  afterEach(() => speak('en'));

  it('lists the units that are not zero', () => {
    expect(duration(3725)).toBe('1 hr 2 min 5 sec');
    expect(duration(180)).toBe('3 min');
    expect(duration(5)).toBe('5 sec');
    expect(duration(3600, 'long')).toBe('1 hour');
    expect(duration(7260, 'long')).toBe('2 hours 1 minute');
  });

  it('lists them in German', () => {
    speak('de');
    expect(duration(3725)).toBe('1 Std., 2 Min. und 5 Sek.');
    expect(duration(180)).toBe('3 Min.');
    expect(duration(7260, 'long')).toBe('2 Stunden, 1 Minute');
  });

  it('ticks on two digits below the largest unit, across the 60 s and 60 min boundaries', () => {
    expect(ticking(59)).toBe('59 sec');
    expect(ticking(60)).toBe('1 min 00 sec');
    expect(ticking(65)).toBe('1 min 05 sec');
    expect(ticking(59 * 60 + 59)).toBe('59 min 59 sec');
    expect(ticking(3600)).toBe('1 hr 00 min');
    expect(ticking(3725)).toBe('1 hr 02 min');
    speak('de');
    expect(ticking(5)).toBe('5 Sek.');
    expect(ticking(65)).toBe('1 Min., 05 Sek.');
    expect(ticking(3725)).toBe('1 Std., 02 Min.');
  });

  it('says zero for zero, negative or nonsense input instead of failing', () => {
    for (const n of [0, -5, -3600, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(duration(n)).toBe('0 sec');
      expect(ticking(n)).toBe('0 sec');
      expect(seconds(n)).toBe('0.00 sec');
    }
    speak('de');
    expect(duration(-1)).toBe('0 Sek.');
  });

  it('says a short run in seconds with a fraction, and a time ahead in hours', () => {
    expect(seconds(1.234)).toBe('1.23 sec');
    expect(inHours(1)).toBe('in 1 hour');
    expect(inHours(4)).toBe('in 4 hours');
    speak('de');
    expect(seconds(1.234)).toBe('1,23 Sek.');
    expect(inHours(4)).toBe('in 4 Stunden');
  });

  it('says milliseconds with the fraction asked', () => {
    expect(milliseconds(3.25, 1)).toBe('3.3 ms');
    expect(milliseconds(Number.NaN)).toBe('0 ms');
    speak('de');
    expect(milliseconds(3.25, 1)).toBe('3,3 ms');
  });
});
