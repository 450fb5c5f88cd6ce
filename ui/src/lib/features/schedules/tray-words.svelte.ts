// The tray's "Next: <title> at 04:30 PM", its time worded here. Rust builds the tray's menu but
// has no Intl, so the page says when each schedule runs next ("at 04:30 PM", "tomorrow at
// 08:00 AM", "on Tue, Mar 31 at 08:00 AM"; "um 16:30" in German) of the run the line names,
// which it asks Rust for (crates/core/src/schedules/tray_words.rs). Said again when the schedules change, when the
// page's language changes and just after midnight ("tomorrow" becomes "today"). The page runs as long
// as Porthole does, its window hidden in the tray too.
import { untrack } from 'svelte';
import type { SchedulesApi, TrayTime } from './api';
import { daysFrom, untilTomorrow } from './words';
import { intl, language, t } from '../../i18n';

/** The first words wait this long after the page starts: the first screen's round trips go
 * first. Until then the tray names the next task without its time. */
export const AFTER_LAUNCH_MS = 1000;

/** "at 04:30 PM" today, "tomorrow at 08:00 AM", "on Tue, Mar 31 at 08:00 AM", in the person's zone. */
export function trayWhen(at: number, now = Date.now()): string {
  const time = intl.clock(at);
  switch (daysFrom(at, now)) {
    case 0:
      return t('scheduleNotes.atTime', { time });
    case 1:
      return t('scheduleNotes.tomorrowAt', { time });
    default:
      return t('scheduleNotes.onDateAt', { date: intl.weekdayDate(at), time });
  }
}

/** The words for the next run, none when none runs. */
export function trayTimes(next: number | null, now = Date.now()): TrayTime[] {
  return next === null ? [] : [{ at: next, words: trayWhen(next, now) }];
}

export type TrayWordsApi = Pick<SchedulesApi, 'trayNextAt' | 'onChanged' | 'setTrayTimes'>;

/** Keeps the tray's words said from `wait` ms on; returns what stops it. */
export function keepTrayWords(api: TrayWordsApi, wait = AFTER_LAUNCH_MS): () => void {
  let next: number | null = null;
  let started = false;
  let loads = 0;
  let midnight: ReturnType<typeof setTimeout> | undefined;
  let unlisten: Promise<(() => void) | void> | undefined;

  function say() {
    const now = Date.now();
    void api.setTrayTimes(language.current, now, trayTimes(next, now)).catch(() => {});
    clearTimeout(midnight);
    midnight = setTimeout(say, untilTomorrow(now) + 1000);
  }

  async function load() {
    const mine = ++loads;
    let read: number | null = null;
    try {
      read = await api.trayNextAt();
    } catch {
      // Rust not there (never in the app): nothing to say.
    }
    // An answer overtaken by a newer one says nothing.
    if (mine !== loads) return;
    next = read;
    say();
  }

  const start = setTimeout(() => {
    started = true;
    unlisten = api.onChanged(() => void load()).catch(() => {});
    void load();
  }, wait);
  const stopFollowingLanguage = $effect.root(() => {
    $effect(() => {
      void language.current;
      if (started) untrack(say);
    });
  });

  return () => {
    clearTimeout(start);
    clearTimeout(midnight);
    stopFollowingLanguage();
    void unlisten?.then((stop) => stop?.());
  };
}
