// Learned code stops with two known failures, written "<code>: <app>" (learn documents them):
// `needs_sign_in` when the screen asks to sign in, `precondition_failed` when the app did not
// open. The person gets what happened and what to do; anything else is left as it came.

export function plainBlockError(message: string | null | undefined): string | null {
  if (!message) return null;
  const signIn = /needs_sign_in:\s*([^\n]+)/.exec(message);
  if (signIn) {
    const app = signIn[1].trim();
    return `${app} is asking to sign in. Sign in to it on the computer (the live screen shows it), then run this again. If a sign-in was not expected, “Fix it” can repair the task.`;
  }
  const notOpen = /precondition_failed:\s*(.+?)\s+did not open/.exec(message);
  if (notOpen) {
    const app = notOpen[1].trim();
    return `${app} did not open on the computer. Check that it is installed there, then run this again.`;
  }
  return null;
}
