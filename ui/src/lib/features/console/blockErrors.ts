// Learned code stops with two known failures, written "<code>: <app>" (learn documents them):
// `needs_sign_in` when the screen asks to sign in, `precondition_failed` when the app did not
// open. The person gets what happened and what to do; anything else is left as it came.
import { t } from '../../i18n';

export function plainBlockError(message: string | null | undefined): string | null {
  if (!message) return null;
  const signIn = /needs_sign_in:\s*([^\n]+)/.exec(message);
  if (signIn) {
    const app = signIn[1].trim();
    return t('console.block.needsSignIn', { app });
  }
  const notOpen = /precondition_failed:\s*(.+?)\s+did not open/.exec(message);
  if (notOpen) {
    const app = notOpen[1].trim();
    return t('console.block.didNotOpen', { app });
  }
  return null;
}
