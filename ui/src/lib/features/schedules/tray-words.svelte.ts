// The tray's "Next: <title> at 16:30", its time worded here. Rust builds the tray's menu but
// has no Intl, so the page says when each schedule runs next ("at 16:30", "tomorrow at 08:00",
// "on Tue, Mar 31 at 08:00") and Rust puts the next one's words in the line
// (src-tauri/src/schedules/tray_words.rs). Said again when the list changes, when the page's
// language changes and just after midnight ("tomorrow" becomes "today"). The page runs as long
// as Porthole does, its window hidden in the tray too.
import { untrack } from 'svelte';
import type { ScheduleRow, SchedulesApi, TrayTime } from './api';
import { daysFrom, untilTomorrow } from './words';
import { intl, language, t } from '../../i18n';

/** The first words wait this long after the page starts: the first screen's round trips go
 * first. Until then the tray names the next task without its time. */
export const AFTER_LAUNCH_MS = 1000;

/** "at 16:30" today, "tomorrow at 08:00", "on Tue, Mar 31 at 08:00", in the person's zone. */
export function trayWhen(at: number, now = Date.now()): string {
  const time = intl.clock24(at);
  switch (daysFrom(at, now)) {
    case 0:
      return t('scheduleNotes.atTime', { time });
    case 1:
      return t('scheduleNotes.tomorrowAt', { time });
    default:
      return t('scheduleNotes.onDateAt', { date: intl.weekdayDate(at), time });
  }
}

/** The words for each schedule that runs again. */
export function trayTimes(rows: ScheduleRow[], now = Date.now()): TrayTime[] {
  return rows.flatMap((r) => (r.nextAt === null ? [] : [{ at: r.nextAt, words: trayWhen(r.nextAt, now) }]));
}

export type TrayWordsApi = Pick<SchedulesApi, 'list' | 'onChanged' | 'setTrayTimes'>;

/** Keeps the tray's words said from `wait` ms on; returns what stops it. */
export function keepTrayWords(api: TrayWordsApi, wait = AFTER_LAUNCH_MS): () => void {
  let rows: ScheduleRow[] = [];
  let started = false;
  let loads = 0;
  let midnight: ReturnType<typeof setTimeout> | undefined;
  let unlisten: Promise<(() => void) | void> | undefined;

  function say() {
    const now = Date.now();
    void api.setTrayTimes(language.current, now, trayTimes(rows, now)).catch(() => {});
    clearTimeout(midnight);
    midnight = setTimeout(say, untilTomorrow(now) + 1000);
  }

  async function load() {
    const mine = ++loads;
    let read: ScheduleRow[] = [];
    try {
      read = (await api.list()).rows;
    } catch {
      // Not connected yet: no schedule to say anything of.
    }
    // An answer overtaken by a newer one says nothing.
    if (mine !== loads) return;
    rows = read;
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
