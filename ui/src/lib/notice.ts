// Porthole's own lines in a thread (a stop, an answer, a cap reached), saved as facts and worded
// here when shown, from the catalog (locales/<language>/notices.json), the same keys
// crates/core/src/words/notices.rs words them from for the search index.
import type { Notice } from './bindings';
import { intl, t, type Key } from './i18n';

/** A sum in a sentence, never a cost that rounds to nothing (`null`: a sum JSON could not
 * hold, never saved in practice, said as nothing spent rather than failing). */
function sum(usd: number | null): string {
  const n = usd ?? 0;
  return n > 0 && n < 0.01 ? t('notices.lessThanACent', { cent: intl.money(0.01) }) : intl.money(n);
}

/** The notice in words. */
export function noticeText(notice: Notice): string {
  switch (notice.what) {
    case 'stoppedAtCap':
      return t('notices.stoppedAtCap', { cap: sum(notice.capUsd), cost: sum(notice.costUsd) });
    case 'notStoppedAtCap':
      return t('notices.notStoppedAtCap', { cap: sum(notice.capUsd) });
    case 'capRaised':
      return t('notices.capRaised', { cap: sum(notice.capUsd) });
    case 'capKept':
      return t('notices.capKept', { cap: sum(notice.capUsd) });
    case 'answered':
      return t('notices.answered', { picks: notice.picks.join(', ') });
    case 'earlier':
      return notice.text;
    default:
      // A notice without a sentence in the English catalog fails the type check here.
      return t(`notices.${notice.what}` as const satisfies Key);
  }
}

/** A delivery line: the service's news in its words, or the app's own "Sending again…". */
export function statusText(item: { text: string; about?: string | null }): string {
  // The service's word for a task the person's own computer has not picked up: said in
  // Porthole's words, with what the person can do about it.
  if (item.about === 'stalled') return t('notices.stalled');
  return item.about === 'resending' && !item.text ? t('notices.sendingAgain') : item.text;
}

/** Status news that asks something of the person (shown in the warning colour). */
export function statusNeedsPerson(about?: string | null): boolean {
  return about === 'agent_offline' || about === 'stalled';
}
