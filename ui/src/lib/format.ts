// Plain-language formatting of times, money and counts, in the page's language: durations and
// "how long ago" by Intl (i18n/intl.ts), the few words Intl lacks from the catalog (common.json).
import { intl, t } from './i18n';

/** How long ago, short, by Intl: "just now", "5 min. ago", "3 hr. ago", "yesterday", "4 days ago"
 * / "gerade eben", "vor 5 Min.". "just now" stays the catalog's: Intl's "now" reads oddly in
 * "Changed now" / "Geändert jetzt". */
export function relativeTime(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return t('common.time.never');
  if (intl.isNow(ms, now)) return t('common.time.justNow');
  return intl.ago(ms, now, 'short');
}

/** Time left, as a clock that ticks: "1 hr 02 min", "1 min 05 sec", "5 sec". */
export function countdown(untilMs: number, now = Date.now()): string {
  return intl.ticking((untilMs - now) / 1000);
}

export function clockTime(ms: number): string {
  return intl.clock(ms);
}

/** "$1.50"; a positive sum under a cent is "< $0.01", not nothing. */
export function dollars(usd: number): string {
  return intl.money(usd);
}

export function tokens(n: number): string {
  if (n >= 1_000_000) return t('common.tokens.millions', { n: intl.number(n / 1_000_000, 1) });
  if (n >= 1_000) return t('common.tokens.thousands', { n: intl.number(n / 1_000, 1) });
  return intl.number(n);
}
