// Plain-language formatting of times, money and counts, in the page's language: the words
// come from the catalog (common.json), the numbers' shapes from Intl (i18n/intl.ts).
import { intl, t } from './i18n';

/** How long ago, short: "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago".
 * Not `intl.ago`: its "5 minutes ago" is longer than a sidebar tooltip wants. */
export function relativeTime(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return t('common.time.never');
  const s = Math.round((now - ms) / 1000);
  if (s < 45) return t('common.time.justNow');
  const m = Math.round(s / 60);
  if (m < 60) return t('common.time.minutesAgo', { n: m });
  const h = Math.round(m / 60);
  if (h < 24) return t('common.time.hoursAgo', { n: h });
  return t('common.time.daysAgo', { count: Math.round(h / 24) });
}

/** Time left, as a clock that ticks: "1 h 02 min", "1 min 05 s", "5 s". */
export function countdown(untilMs: number, now = Date.now()): string {
  const total = Math.max(0, Math.round((untilMs - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return t('common.countdown.hours', { h, m: two(m) });
  if (m > 0) return t('common.countdown.minutes', { m, s: two(s) });
  return t('common.countdown.seconds', { s });
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
