// Dates, times, money, durations and numbers in the page's language, through Intl: the words
// and order around them come from the catalog, the numbers' shapes from here.
import { tag } from './language.svelte';

/** A sum in US dollars, as the service counts it: "$1.50" / "1,50 $"; a positive sum under a
 * cent is said as under a cent, not as nothing. */
export function money(usd: number): string {
  const format = new Intl.NumberFormat(tag(), { style: 'currency', currency: 'USD' });
  return usd > 0 && usd < 0.01 ? `< ${format.format(0.01)}` : format.format(usd);
}

export function number(n: number, digits?: number): string {
  const options = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(tag(), options).format(n);
}

/** A clock time: "14:05" / "2:05 PM". */
export function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString(tag(), { hour: '2-digit', minute: '2-digit' });
}

/** A clock time on the 24-hour clock in every language: "14:05" (a schedule's times, set as
 * "HH:MM" in its form, read back the same way). */
export function clock24(ms: number): string {
  return new Date(ms).toLocaleTimeString(tag(), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** A day of the week with its date, short: "Tue, Apr 14" / "Di., 14. Apr.". */
export function weekdayDate(ms: number): string {
  return new Date(ms).toLocaleDateString(tag(), { weekday: 'short', day: 'numeric', month: 'short' });
}

/** A day and time: "Nov 26, 14:05" / "26. Nov., 14:05". */
export function dateTime(ms: number): string {
  return new Date(ms).toLocaleString(tag(), { dateStyle: 'medium', timeStyle: 'short' });
}

export function date(ms: number): string {
  return new Date(ms).toLocaleDateString(tag(), { dateStyle: 'medium' });
}

/** How long ago, in words: "5 minutes ago" / "vor 5 Minuten", "yesterday" / "gestern". */
export function ago(ms: number, now = Date.now()): string {
  const format = new Intl.RelativeTimeFormat(tag(), { numeric: 'auto' });
  const s = Math.round((ms - now) / 1000);
  if (Math.abs(s) < 45) return format.format(0, 'second');
  const m = Math.round(s / 60);
  if (Math.abs(m) < 60) return format.format(m, 'minute');
  const h = Math.round(m / 60);
  if (Math.abs(h) < 24) return format.format(h, 'hour');
  return format.format(Math.round(h / 24), 'day');
}

/** A duration, short: "1 hr, 5 min" / "1 Std., 5 Min.", "45 sec" / "45 Sek.". Built from
 * NumberFormat's units, since Intl.DurationFormat is not in every engine the app runs on. */
export function duration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const unit = (value: number, u: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(tag(), { style: 'unit', unit: u, unitDisplay: 'short' }).format(value);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = h > 0 ? [unit(h, 'hour'), unit(m, 'minute')] : m > 0 ? [unit(m, 'minute'), unit(s, 'second')] : [unit(s, 'second')];
  return new Intl.ListFormat(tag(), { style: 'narrow', type: 'unit' }).format(parts);
}

/** The names of the week's days, Monday first, in the page's language. */
export function weekdays(style: 'long' | 'short' = 'long'): string[] {
  const monday = Date.UTC(2024, 0, 1);
  return Array.from({ length: 7 }, (_, i) =>
    new Date(monday + i * 86_400_000).toLocaleDateString(tag(), { weekday: style, timeZone: 'UTC' }),
  );
}
