import { afterEach, describe, expect, it } from 'vitest';
import { ComposerOptions, RECORD_STEPS_KEY } from './options.svelte';

describe('Record steps', () => {
  afterEach(() => localStorage.clear());

  it('is on for a person who never chose', () => {
    expect(new ComposerOptions().recordSteps).toBe(true);
    expect(new ComposerOptions().options().recordSteps).toBe(true);
  });

  it('stays off once turned off, across a new window, and on again once turned on', () => {
    const first = new ComposerOptions();
    first.recordSteps = false;
    expect(localStorage.getItem(RECORD_STEPS_KEY)).toBe('false');
    expect(new ComposerOptions().recordSteps).toBe(false);
    new ComposerOptions().recordSteps = true;
    expect(new ComposerOptions().recordSteps).toBe(true);
  });
});
