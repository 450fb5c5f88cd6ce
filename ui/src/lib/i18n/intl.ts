// Dates, times, money and numbers in the page's language, through Intl: the words and order
// around them come from the catalog, the numbers' shapes from here.
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

/** The clock's shape, which every time of day the app writes shares (a report's date too). */
const CLOCK = { hour: '2-digit', minute: '2-digit' } as const;

/** A time of day, the one way the app says it: in the page's language's own convention, as the
 * native time field of the schedule form shows it too ("08:05 AM" / "08:05"), so a person never
 * reads two clocks. `ms` is read in the person's time zone. */
export function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString(tag(), CLOCK);
}

/** A day of the week with its date, short: "Tue, Apr 14" / "Di., 14. Apr.". */
export function weekdayDate(ms: number): string {
  return new Date(ms).toLocaleDateString(tag(), { weekday: 'short', day: 'numeric', month: 'short' });
}

/** A day and time for someone elsewhere to read, with the time zone: "November 26, 2026 at
 * 02:05 PM UTC" / "26. November 2026 um 15:05 MEZ" (a shared report's date), its time as
 * [`clock`] writes it. */
export function dateTimeWithZone(ms: number, timeZone?: string): string {
  return new Intl.DateTimeFormat(tag(), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    ...CLOCK,
    timeZoneName: 'short',
    timeZone,
  }).format(ms);
}

/** The names of the week's days, Monday first, in the page's language. */
export function weekdays(style: 'long' | 'short' = 'long'): string[] {
  const monday = Date.UTC(2024, 0, 1);
  return Array.from({ length: 7 }, (_, i) =>
    new Date(monday + i * 86_400_000).toLocaleDateString(tag(), { weekday: style, timeZone: 'UTC' }),
  );
}

/** How Intl words a unit: "5 minutes" (long), "5 min" (short), "5m" (narrow). */
export type Width = 'long' | 'short' | 'narrow';

/** How long ago a time was, by Intl in the page's language: "now", "5 min. ago" / "vor 5 Min.",
 * "3 hr. ago", "yesterday" / "gestern", "4 days ago", "last mo.". Under 45 s (or a time ahead
 * of `now`, a clock that runs a little fast) it is Intl's "now"; minutes up to 59, hours up to
 * 23, days up to 29, then months, then years. */
export function ago(ms: number, now = Date.now(), width: Width = 'short'): string {
  const words = new Intl.RelativeTimeFormat(tag(), { numeric: 'auto', style: width });
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (!Number.isFinite(s) || s < NOW_SECONDS) return words.format(0, 'second');
  const m = Math.round(s / 60);
  if (m < 60) return words.format(-m, 'minute');
  const h = Math.round(m / 60);
  if (h < 24) return words.format(-h, 'hour');
  const days = Math.round(h / 24);
  if (days < 30) return words.format(-days, 'day');
  if (days < 365) return words.format(-Math.max(1, Math.round(days / 30.44)), 'month');
  return words.format(-Math.round(days / 365.25), 'year');
}

/** Under this many seconds, `ago` says "now". */
export const NOW_SECONDS = 45;

/** Whether `ago` would say "now" of a time: under 45 s ago, or ahead of `now`. */
export function isNow(ms: number, now = Date.now()): boolean {
  return !(Math.round((now - ms) / 1000) >= NOW_SECONDS);
}

type Unit = 'hour' | 'minute' | 'second' | 'millisecond';

function amount(n: number, unit: Unit, width: Width, options: Intl.NumberFormatOptions = {}): string {
  return new Intl.NumberFormat(tag(), { style: 'unit', unit, unitDisplay: width, ...options }).format(n);
}

/** Pieces of a duration said together, as the language lists amounts, at its tightest:
 * "1 hr 2 min" / "1 Std., 2 Min." (English's other list styles put commas in). */
function together(pieces: string[]): string {
  return new Intl.ListFormat(tag(), { type: 'unit', style: 'narrow' }).format(pieces);
}

function parts(seconds: number): { h: number; m: number; s: number } {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.round(seconds)) : 0;
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

/** How long something takes or took, in whole seconds: "1 hr 2 min 5 sec", "3 min", "0 sec" /
 * "1 Std., 2 Min., 5 Sek.". Units that are zero are left out. */
export function duration(seconds: number, width: Width = 'short'): string {
  const { h, m, s } = parts(seconds);
  const pieces = [
    ...(h > 0 ? [amount(h, 'hour', width)] : []),
    ...(m > 0 ? [amount(m, 'minute', width)] : []),
    ...(s > 0 || (h === 0 && m === 0) ? [amount(s, 'second', width)] : []),
  ];
  return together(pieces);
}

/** A time that ticks (a countdown, a wait so far), its two largest units with the smaller one
 * on two digits so it does not jump about: "1 hr 02 min", "1 min 05 sec", "5 sec" /
 * "1 Std., 02 Min.". */
export function ticking(seconds: number, width: Width = 'short'): string {
  const { h, m, s } = parts(seconds);
  const two = { minimumIntegerDigits: 2 };
  if (h > 0) return together([amount(h, 'hour', width), amount(m, 'minute', width, two)]);
  if (m > 0) return together([amount(m, 'minute', width), amount(s, 'second', width, two)]);
  return amount(s, 'second', width);
}

/** Seconds with a fraction, for how long a short run took: "1.23 sec" / "1,23 Sek.". */
export function seconds(n: number, digits = 2, width: Width = 'short'): string {
  const value = Number.isFinite(n) ? Math.max(0, n) : 0;
  return amount(value, 'second', width, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Milliseconds, for the live view's developer readout: "3.2 ms" / "3,2 ms". */
export function milliseconds(n: number, digits = 0): string {
  const value = Number.isFinite(n) ? n : 0;
  return amount(value, 'millisecond', 'short', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A time ahead, from now: "in 3 hours" / "in 3 Stunden" ("in 1 hour", never "in 1 hours"). */
export function inHours(hours: number, width: Width = 'long'): string {
  const n = Number.isFinite(hours) ? hours : 0;
  return new Intl.RelativeTimeFormat(tag(), { numeric: 'always', style: width }).format(n, 'hour');
}
