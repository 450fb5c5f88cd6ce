import { describe, expect, it } from 'vitest';
import { plainBlockError } from './blockErrors';

describe('plain words for a block that stopped', () => {
  it('says a sign-in screen stopped the task, and what to do', () => {
    const words = plainBlockError('Error: needs_sign_in: Browser');
    expect(words).toContain('Browser is asking to sign in');
    expect(words).toContain('run this again');
  });

  it('says the app did not open', () => {
    expect(plainBlockError('Error: precondition_failed: Mail did not open')).toBe(
      'Mail did not open on the computer. Check that it is installed there, then run this again.',
    );
  });

  it('leaves other errors as they came', () => {
    expect(plainBlockError('ReferenceError: x is not defined')).toBeNull();
    expect(plainBlockError(undefined)).toBeNull();
  });
});
