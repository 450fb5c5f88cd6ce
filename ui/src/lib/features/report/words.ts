// The report's date and cost in the page's words: the Rust side writes the file but has no
// Intl, so the page words them as the window does and hands them over (report/page_words.rs).
import type { Receipt, ReportWords, SaidReceipt } from '../../api';
import { intl } from '../../i18n';
import { receiptWords } from '../receipt/words';

/** When the report is made (now, with the time zone: it is read elsewhere) and what the task
 * cost, as the window says a sum ("$0.52", "< $0.01"); no cost when none was reported. */
export function reportWords(costUsd: number | null, now = Date.now(), timeZone?: string): ReportWords {
  return {
    madeAt: intl.dateTimeWithZone(now, timeZone),
    cost: costUsd === null ? null : intl.money(costUsd),
  };
}

/** The task's receipt in the thread's words (receipt/words.ts), which the report opens with. */
export function saidReceipt(receipt: Receipt): SaidReceipt {
  const words = receiptWords(receipt);
  return {
    outcome: receipt.outcome,
    outcomeWords: words.outcome,
    why: words.why,
    judged: words.judged,
    touched: words.touched,
    figures: words.figures,
  };
}
