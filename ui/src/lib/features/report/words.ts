// The report's date and cost in the page's words: the Rust side writes the file but has no
// Intl, so the page words them as the window does and hands them over (report/page_words.rs).
import type { ReportWords } from './api';
import { intl } from '../../i18n';

/** When the report is made (now, with the time zone: it is read elsewhere) and what the task
 * cost, as the window says a sum ("$0.52", "< $0.01"); no cost when none was reported. */
export function reportWords(costUsd: number | null, now = Date.now(), timeZone?: string): ReportWords {
  return {
    madeAt: intl.dateTimeWithZone(now, timeZone),
    cost: costUsd === null ? null : intl.money(costUsd),
  };
}
