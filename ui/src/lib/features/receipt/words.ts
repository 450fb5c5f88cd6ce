// A task's receipt in words: Porthole's reading of the task (Rust, `receipt/`) said in the
// page's language.
import type { Receipt, Judged, ReceiptOutcome, Touched, Why } from '../../api';
import { intl, t, type Key } from '../../i18n';
import { dollars } from '../../format';
import { placeWords } from '../../approval-words';

const OUTCOME = {
  done: 'answer.receipt.done',
  notDone: 'answer.receipt.notDone',
  partly: 'answer.receipt.partly',
} as const satisfies Record<ReceiptOutcome, Key>;

const JUDGED = {
  check: 'answer.receipt.judged.check',
  answer: 'answer.receipt.judged.answer',
} as const satisfies Record<Judged, Key>;

const WHY = {
  declined: 'answer.receipt.why.declined',
  failed: 'answer.receipt.why.failed',
  stopped: 'answer.receipt.why.stopped',
  stoppedAtCap: 'answer.receipt.why.stoppedAtCap',
  answerSaysNotAll: 'answer.receipt.why.answerSaysNotAll',
  criteriaNotMet: 'answer.receipt.why.criteriaNotMet',
} as const satisfies Record<Why, Key>;

export function touchedWords(thing: Touched): string {
  switch (thing.kind) {
    case 'app': return t('answer.receipt.app', { name: thing.name });
    case 'site': return t('answer.receipt.site', { host: thing.host });
    case 'file': return t('answer.receipt.file', { name: thing.name });
    case 'purchase': return t('answer.receipt.purchase', { title: thing.title });
    case 'message': return t('answer.receipt.message', { title: thing.title });
    case 'deleted': {
      const { kind, name, place } = thing.deletion;
      const where = placeWords(place);
      if (kind === 'disk') return t('answer.receipt.erasedDisk', { name });
      if (kind === 'folder') return t('answer.receipt.deletedFolder', { name, place: where });
      if (kind === 'matching') return t('answer.receipt.deletedMatching', { pattern: name, place: where });
      if (kind === 'found') return t('answer.receipt.deletedFound', { place: where });
      return t('answer.receipt.deletedFile', { name, place: where });
    }
  }
}

export interface ReceiptWords {
  outcome: string;
  why: string | null;
  judged: string;
  touched: string[];
  /** "Took 42 sec · Cost $0.04", what is known of the two. */
  figures: string[];
}

export function receiptWords(receipt: Receipt): ReceiptWords {
  const figures: string[] = [];
  if (receipt.seconds != null) figures.push(t('answer.receipt.took', { time: intl.duration(receipt.seconds) }));
  if (receipt.costUsd != null) figures.push(t('answer.receipt.cost', { amount: dollars(receipt.costUsd) }));
  return {
    outcome: t(OUTCOME[receipt.outcome]),
    why: receipt.why ? t(WHY[receipt.why]) : null,
    judged: t(JUDGED[receipt.judged]),
    touched: receipt.touched.map(touchedWords),
    figures,
  };
}
