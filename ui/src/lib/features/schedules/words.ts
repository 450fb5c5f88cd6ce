// Schedules in plain words: how often, when next, what the last run did.
import type { Outcome, Repeat, Schedule, TimeOfDay } from './api';
import { shown } from '../../ui-error';

export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function timeOfDay(t: TimeOfDay): string {
  return `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
}

/** "Tue 14 Apr, 08:00" in the person's own time zone; "today"/"tomorrow" when near. */
export function when(ms: number, now = Date.now()): string {
  const at = new Date(ms);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(at) - day(new Date(now))) / 86_400_000);
  if (days === 0) return `today at ${time}`;
  if (days === 1) return `tomorrow at ${time}`;
  if (days === -1) return `yesterday at ${time}`;
  const date = at.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' });
  return `${date} at ${time}`;
}

export function describeRepeat(repeat: Repeat, now = Date.now()): string {
  switch (repeat.kind) {
    case 'once':
      return `Once, ${when(repeat.at ?? 0, now)}`;
    case 'daily':
      return `Every day at ${timeOfDay(repeat.time)}`;
    case 'weekdays': {
      const days = [...repeat.days].sort((a, b) => a - b);
      const names =
        days.join() === '0,1,2,3,4' ? 'weekdays' : days.join() === '5,6' ? 'weekends' : days.map((d) => SHORT[d]).join(', ');
      return `Every ${names} at ${timeOfDay(repeat.time)}`;
    }
    case 'everyHours':
      return repeat.hours === 1 ? 'Every hour' : `Every ${repeat.hours} hours`;
  }
}

export function nextWords(nextAt: number | null, schedule: Schedule, allPaused: boolean, now = Date.now()): string {
  if (allPaused || schedule.paused) return 'Paused';
  if (nextAt === null) return 'No more runs';
  return `Next: ${when(nextAt, now)}`;
}

export function outcomeWords(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'started':
      return outcome.held ? 'Waiting for the task before it to end' : 'Running now';
    case 'ended':
      switch (outcome.status) {
        case 'succeeded':
          return 'Done';
        case 'failed':
          return 'Did not finish';
        case 'stopped':
          return 'Stopped';
        default:
          return 'Ended';
      }
    case 'skipped':
    case 'notSent':
      // Saved as a code; its words are the ones the notification said.
      return shown(outcome.reason).detail;
  }
}

/** "Last run today at 08:00: Done", or null before the first run. */
export function lastWords(schedule: Schedule, now = Date.now()): string | null {
  if (!schedule.last) return null;
  return `Last run ${when(schedule.last.at ?? 0, now)}: ${outcomeWords(schedule.last.outcome)}`;
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
      if (!form.onceAt || Number.isNaN(at)) return 'Choose the day and time to run it.';
      if (at <= now) return 'That time has already passed. Choose a time to come.';
      return { kind: 'once', at };
    }
    case 'daily':
      return timeOk ? { kind: 'daily', time } : 'Choose a time of day.';
    case 'weekdays':
      if (!timeOk) return 'Choose a time of day.';
      if (form.days.length === 0) return 'Choose at least one day of the week.';
      return { kind: 'weekdays', days: [...form.days].sort((a, b) => a - b), time };
    case 'everyHours': {
      const hours = Math.round(form.hours);
      if (!(hours >= 1 && hours <= 168)) return 'Choose a number of hours from 1 to 168 (a week).';
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
