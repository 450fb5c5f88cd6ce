// Schedules in plain words: how often, when next, what the last run did.
import type { Outcome, Repeat, Schedule, TimeOfDay } from './api';
import { shown } from '../../ui-error';
import { intl, t, type Key } from '../../i18n';

/** The days of the week, Monday first, short ("Mon"), in the page's language. */
export function dayNames(): string[] {
  return intl.weekdays('short');
}

/** A schedule's time of day as the app says every time (`intl.clock`): "08:00 AM" / "08:00". */
export function timeOfDay(time: TimeOfDay): string {
  return intl.clock(new Date(2000, 0, 1, time.hour, time.minute).getTime());
}

/** How many of the person's days `ms` is after `now`'s: 0 today, 1 tomorrow, -1 yesterday. */
export function daysFrom(ms: number, now = Date.now()): number {
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((day(new Date(ms)) - day(new Date(now))) / 86_400_000);
}

/** How long until the person's next day begins, in ms (a day of 23 or 25 hours too). */
export function untilTomorrow(now = Date.now()): number {
  const today = new Date(now);
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1).getTime() - now;
}

/** "Tue, Apr 14 at 08:00 AM" in the person's own time zone; "today"/"tomorrow" when near. */
export function when(ms: number, now = Date.now()): string {
  const time = intl.clock(ms);
  const days = daysFrom(ms, now);
  if (days === 0) return t('schedules.when.today', { time });
  if (days === 1) return t('schedules.when.tomorrow', { time });
  if (days === -1) return t('schedules.when.yesterday', { time });
  return t('schedules.when.day', { date: intl.weekdayDate(ms), time });
}

export function describeRepeat(repeat: Repeat, now = Date.now()): string {
  switch (repeat.kind) {
    case 'once':
      return t('schedules.repeat.once', { when: when(repeat.at ?? 0, now) });
    case 'daily':
      return t('schedules.repeat.daily', { time: timeOfDay(repeat.time) });
    case 'weekdays': {
      const days = [...repeat.days].sort((a, b) => a - b);
      const short = dayNames();
      const names =
        days.join() === '0,1,2,3,4'
          ? t('schedules.repeat.workdays')
          : days.join() === '5,6'
            ? t('schedules.repeat.weekends')
            : days.map((d) => short[d]).join(', ');
      return t('schedules.repeat.weekdays', { days: names, time: timeOfDay(repeat.time) });
    }
    case 'everyHours':
      return t('schedules.repeat.everyHours', { count: repeat.hours });
  }
}

export function nextWords(nextAt: number | null, schedule: Schedule, allPaused: boolean, now = Date.now()): string {
  if (allPaused || schedule.paused) return t('schedules.next.paused');
  if (nextAt === null) return t('schedules.next.none');
  return t('schedules.next.at', { when: when(nextAt, now) });
}

const ENDED: Record<string, Key> = {
  succeeded: 'schedules.outcome.done',
  failed: 'schedules.outcome.failed',
  stopped: 'schedules.outcome.stopped',
};

export function outcomeWords(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'started':
      return outcome.held ? t('schedules.outcome.waiting') : t('schedules.outcome.running');
    case 'ended':
      return t(ENDED[outcome.status] ?? 'schedules.outcome.ended');
    case 'skipped':
    case 'notSent':
      // Saved as a code; its words are the ones the notification said.
      return shown(outcome.reason).detail;
  }
}

/** "Last run today at 08:00: Done", or null before the first run. */
export function lastWords(schedule: Schedule, now = Date.now()): string | null {
  if (!schedule.last) return null;
  return t('schedules.lastRun', { when: when(schedule.last.at ?? 0, now), outcome: outcomeWords(schedule.last.outcome) });
}

/** The form's fields as a Repeat; a sentence when something is missing. */
export type RepeatForm = {
  kind: Repeat['kind'];
  /** "YYYY-MM-DDTHH:MM" for once (a datetime-local input's value). */
  onceAt: string;
  /** "HH:MM". */
  time: string;
  days: number[];
  hours: number;
};

export function repeatFrom(form: RepeatForm, now = Date.now()): Repeat | string {
  const [h, m] = form.time.split(':').map(Number);
  const time = { hour: h, minute: m };
  const timeOk = Number.isInteger(h) && Number.isInteger(m) && h >= 0 && h < 24 && m >= 0 && m < 60;
  switch (form.kind) {
    case 'once': {
      const at = new Date(form.onceAt).getTime();
      if (!form.onceAt || Number.isNaN(at)) return t('schedules.problem.chooseDayAndTime');
      if (at <= now) return t('schedules.problem.passed');
      return { kind: 'once', at };
    }
    case 'daily':
      return timeOk ? { kind: 'daily', time } : t('schedules.problem.chooseTime');
    case 'weekdays':
      if (!timeOk) return t('schedules.problem.chooseTime');
      if (form.days.length === 0) return t('schedules.problem.chooseDay');
      return { kind: 'weekdays', days: [...form.days].sort((a, b) => a - b), time };
    case 'everyHours': {
      const hours = Math.round(form.hours);
      if (!(hours >= 1 && hours <= 168)) return t('schedules.problem.hours');
      // The first run is one interval from now.
      return { kind: 'everyHours', hours, from: now + hours * 3_600_000 };
    }
  }
}

/** "YYYY-MM-DDTHH:MM" in local time, for a datetime-local input. */
export function localInputValue(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
