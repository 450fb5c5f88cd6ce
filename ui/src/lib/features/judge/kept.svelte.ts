// The service's checks the person ran ("Check this result"), by task (`turnId`), for the
// window's life: the task's receipt reads its outcome from the check when there is one, and
// says so (receipt/outcome.rs). Not saved: a check is asked again after a restart.
import type { Check, Judgement } from '../../api';
import { shownVerdict } from './verdict';

const kept: Record<string, Check> = $state({});

/** How many of a judgement's criteria passed, of how many, as the window shows them: a check
 *  shown "Not sure" is not counted a pass. `null` when the service could not tell. */
export function checkOf(judgement: Judgement): Check | null {
  const criteria = judgement.criteria ?? [];
  if (criteria.length === 0) {
    const shown = shownVerdict(judgement.verdict, null);
    if (shown === 'unverifiable') return null;
    return { passed: shown === 'passed' ? 1 : 0, of: 1 };
  }
  const judged = criteria.filter((c) => shownVerdict(c.verdict, c.score) !== 'unverifiable');
  if (judged.length === 0) return null;
  return { passed: judged.filter((c) => shownVerdict(c.verdict, c.score) === 'passed').length, of: judged.length };
}

export function keepCheck(turnId: string, judgement: Judgement): void {
  const check = checkOf(judgement);
  if (check) kept[turnId] = check;
  else delete kept[turnId];
}

/** The check the person ran on task `turnId`, if any. */
export function checkFor(turnId: string | null | undefined): Check | null {
  return turnId ? (kept[turnId] ?? null) : null;
}
