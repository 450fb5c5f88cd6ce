// Why a run of a saved task did not finish, in words with a way out. The service's raw message
// ("Error: needs_sign_in: Browser") stays under Technical details.
import { plainBlockError } from '../console/blockErrors';
import { t } from '../../i18n';

export type Problem = { title: string; detail: string };

export function runProblem(message: string | null | undefined, computer: string): Problem {
  const text = message ?? '';
  const signIn = /needs_sign_in:\s*([^\n]+)/.exec(text);
  if (signIn) {
    const app = signIn[1].trim() || t('reusable.problem.anApp');
    // The live screen only shows the computer: the way to sign in is to ask the agent, which
    // asks for the password on the service's own secure page.
    return {
      title: t('reusable.problem.signInTitle', { app, computer }),
      detail: t('reusable.problem.signInDetail', { app }),
    };
  }
  return {
    title: t('reusable.problem.notFinished'),
    detail: plainBlockError(text) || t('reusable.problem.stopped'),
  };
}
