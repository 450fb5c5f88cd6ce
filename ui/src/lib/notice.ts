// Porthole's own lines in a thread (a stop, an answer, a cap reached), saved as facts and worded
// here when shown, from the sentences Rust's words module exports (NOTICE_WORDS), filled the
// way src-tauri/src/words/notices.rs fills them for the search index.
import { NOTICE_WORDS, type Notice } from './bindings';

/** A sum in a sentence, as Rust's `notices::dollars` writes it (`null`: a sum JSON could not
 * hold, never saved in practice, said as nothing spent rather than failing). */
function sum(usd: number | null): string {
  const n = usd ?? 0;
  return n > 0 && n < 0.01 ? 'less than $0.01' : `$${n.toFixed(2)}`;
}

/** The notice in words. */
export function noticeText(notice: Notice): string {
  const sentence: string = NOTICE_WORDS[notice.what];
  switch (notice.what) {
    case 'stoppedAtCap':
      return sentence.replace('{cap}', sum(notice.capUsd)).replace('{cost}', sum(notice.costUsd));
    case 'notStoppedAtCap':
      return sentence.replace('{cap}', sum(notice.capUsd));
    case 'answered':
      return sentence.replace('{picks}', notice.picks.join(', '));
    case 'earlier':
      return notice.text;
    default:
      return sentence;
  }
}

/** A delivery line: the service's news in its words, or the app's own "Sending again…". */
export function statusText(item: { text: string; about?: string | null }): string {
  return item.about === 'resending' && !item.text ? NOTICE_WORDS.sendingAgain : item.text;
}
