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

/** The names of the week's days, Monday first, in the page's language. */
export function weekdays(style: 'long' | 'short' = 'long'): string[] {
  const monday = Date.UTC(2024, 0, 1);
  return Array.from({ length: 7 }, (_, i) =>
    new Date(monday + i * 86_400_000).toLocaleDateString(tag(), { weekday: style, timeZone: 'UTC' }),
  );
}
