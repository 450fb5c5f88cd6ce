// Why a run of a saved task did not finish, in words with a way out. The service's raw message
// ("Error: needs_sign_in: Browser") stays under Technical details.
import { plainBlockError } from '../console/blockErrors';

export type Problem = { title: string; detail: string };

export function runProblem(message: string | null | undefined, computer: string): Problem {
  const text = message ?? '';
  const signIn = /needs_sign_in:\s*([^\n]+)/.exec(text);
  if (signIn) {
    const app = signIn[1].trim() || 'An app';
    // The live screen only shows the computer: the way to sign in is to ask the agent, which
    // asks for the password on the service's own secure page.
    return {
      title: `${app} on ${computer} asks to sign in`,
      detail: `Porthole can't type your password for you here. In the conversation, send “Sign in to ${app}”: the agent opens the sign-in and asks for your password on the service's secure page. Then run this again. If no sign-in should be needed, “Fix it” below can repair the task.`,
    };
  }
  return {
    title: 'This run did not finish',
    detail: plainBlockError(text) || 'The task stopped before it gave a result. Try again; if it keeps happening, “Fix it” can repair it.',
  };
}
