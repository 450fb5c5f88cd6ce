import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { AFTER_LAUNCH_MS, keepTrayWords, trayTimes, trayWhen, type TrayWordsApi } from './tray-words.svelte';
import { speak } from '../../i18n';

const now = new Date(2026, 2, 27, 7, 0).getTime(); // Friday 27 March 2026, 07:00 local
const at = (day: number, hour: number, minute = 0) => new Date(2026, 2, day, hour, minute).getTime();

describe('the tray’s words for when a schedule runs next, by Intl', () => {
  afterEach(() => speak('en'));

  it('says the time today, tomorrow with the word, later with the day and date', () => {
    expect(trayWhen(at(27, 16, 30), now)).toBe('at 04:30 PM');
    expect(trayWhen(at(28, 8), now)).toBe('tomorrow at 08:00 AM');
    expect(trayWhen(at(31, 8), now)).toBe('on Tue, Mar 31 at 08:00 AM');
    expect(trayWhen(at(27, 23, 59), at(27, 23, 58))).toBe('at 11:59 PM');
    expect(trayWhen(at(28, 0, 1), at(27, 23, 59))).toBe('tomorrow at 12:01 AM');
  });

  it('says the same in German', () => {
    speak('de');
    expect(trayWhen(at(27, 16, 30), now)).toBe('um 16:30');
    expect(trayWhen(at(28, 8), now)).toBe('morgen um 08:00');
    expect(trayWhen(at(31, 8), now)).toBe('am Di., 31. März um 08:00');
  });

  it('words the next run, nothing when none runs', () => {
    expect(trayTimes(at(28, 8), now)).toEqual([{ at: at(28, 8), words: 'tomorrow at 08:00 AM' }]);
    expect(trayTimes(null, now)).toEqual([]);
  });
});

describe('keepTrayWords', () => {
  let changed: () => void = () => {};
  let next: number | null;
  let api: TrayWordsApi & { setTrayTimes: ReturnType<typeof vi.fn> };
  const unlisten = vi.fn();

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(now);
    next = at(27, 16, 30);
    api = {
      trayNextAt: vi.fn(async () => next),
      onChanged: vi.fn(async (cb: () => void) => {
        changed = cb;
        return unlisten;
      }),
      setTrayTimes: vi.fn(async () => {}),
    } as unknown as typeof api;
  });
  afterEach(() => {
    vi.useRealTimers();
    speak('en');
  });

  const said = () => api.setTrayTimes.mock.calls.map(([language, , times]) => [language, times]);

  it('says nothing until the first screen had its turn, then the words of every next run', async () => {
    const stop = keepTrayWords(api);
    await vi.advanceTimersByTimeAsync(AFTER_LAUNCH_MS - 1);
    expect(api.trayNextAt).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(said()).toEqual([['en', [{ at: at(27, 16, 30), words: 'at 04:30 PM' }]]]);
    expect(api.setTrayTimes.mock.calls[0][1]).toBe(now + AFTER_LAUNCH_MS);
    stop();
  });

  it('says it again when the schedules change, in the new language, and after midnight', async () => {
    const stop = keepTrayWords(api, 0);
    await vi.advanceTimersByTimeAsync(0);
    next = at(28, 8);
    changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(said().at(-1)).toEqual(['en', [{ at: at(28, 8), words: 'tomorrow at 08:00 AM' }]]);

    speak('de');
    flushSync();
    expect(said().at(-1)).toEqual(['de', [{ at: at(28, 8), words: 'morgen um 08:00' }]]);

    // Past midnight, tomorrow's run is today's.
    await vi.advanceTimersByTimeAsync(at(28, 0, 0) - now + 1000);
    expect(said().at(-1)).toEqual(['de', [{ at: at(28, 8), words: 'um 08:00' }]]);

    const count = said().length;
    stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(unlisten).toHaveBeenCalled();
    speak('en');
    flushSync();
    await vi.advanceTimersByTimeAsync(2 * 86_400_000);
    expect(said().length).toBe(count);
  });

  it('says there is nothing to name when the next run cannot be read', async () => {
    api.trayNextAt = vi.fn(async () => {
      throw new Error('no Rust');
    });
    const stop = keepTrayWords(api, 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(said()).toEqual([['en', []]]);
    stop();
  });
});
