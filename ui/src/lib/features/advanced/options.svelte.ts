// The composer's extra settings (Record steps, output schema, success criteria). They go out
// with the message that starts a task, inside its one send request.
import type { Criteria, SendOptions } from '../../api';

export type CriteriaMode = 'sentence' | 'checks';

/**
 * "Record steps" is on unless the person turned it off: without a recording, Steps and "Save
 * as a reusable task" have nothing to show, a dead end found only after the task. The choice
 * is a preference of this window (no secret, nothing about an account), kept in the page's
 * own storage; a person who never touched it gets the default.
 */
export const RECORD_STEPS_KEY = 'porthole.recordSteps';

function keptRecordSteps(): boolean {
  try {
    return globalThis.localStorage?.getItem(RECORD_STEPS_KEY) !== 'false';
  } catch {
    return true;
  }
}

export class ComposerOptions {
  #recordSteps = $state(keptRecordSteps());
  get recordSteps(): boolean {
    return this.#recordSteps;
  }
  set recordSteps(on: boolean) {
    this.#recordSteps = on;
    try {
      globalThis.localStorage?.setItem(RECORD_STEPS_KEY, String(on));
    } catch {
      // Not kept: this window still uses the choice until it closes.
    }
  }
  advancedOpen = $state(false);
  outputSchema = $state('');
  criteriaMode = $state<CriteriaMode>('sentence');
  sentence = $state('');
  checks = $state<{ check: string; evidence: boolean }[]>([{ check: '', evidence: true }]);

  /** An answer format or success criteria is set: not the usual. */
  get changed(): boolean {
    return this.outputSchema.trim() !== '' || this.criteria() !== null;
  }

  criteria(): Criteria | null {
    if (this.criteriaMode === 'sentence') return this.sentence.trim() ? this.sentence.trim() : null;
    const list = this.checks
      .filter((c) => c.check.trim())
      .map((c, i) => ({ id: `check-${i + 1}`, check: c.check.trim(), returnEvidence: c.evidence }));
    return list.length ? list : null;
  }

  options(): SendOptions {
    return {
      recordSteps: this.recordSteps,
      outputSchema: this.outputSchema,
      successCriteria: this.criteria(),
    };
  }
}

export const composerOptions = new ComposerOptions();
