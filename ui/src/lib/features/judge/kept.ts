// The service's checks the person ran ("Check this result"), kept by the core with the task's
// conversation: the task's receipt reads its outcome from the check when there is one, and
// says so (receipt/outcome.rs), after a restart too. The window counts criteria as it shows them.
import { api } from '../../api';
import type { Check, Judgement } from '../../api';
import { shownVerdict } from './verdict';

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

/** Has the core keep the check of task `turnId` with conversation `conversationId`: the
 *  conversation it sends back carries it, and the thread reads its receipt again. */
export function keepCheck(conversationId: string, turnId: string, judgement: Judgement): Promise<null> {
  return api.keepCheck(conversationId, turnId, checkOf(judgement));
}
