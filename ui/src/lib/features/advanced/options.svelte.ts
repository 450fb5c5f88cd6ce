// The composer's extra settings (Record steps, output schema, success criteria). They go out
// with the message that starts a task, inside its one send request.
import type { Criteria, SendOptions } from '../../api';

export type CriteriaMode = 'sentence' | 'checks';

export class ComposerOptions {
  recordSteps = $state(false);
  advancedOpen = $state(false);
  outputSchema = $state('');
  criteriaMode = $state<CriteriaMode>('sentence');
  sentence = $state('');
  checks = $state<{ check: string; evidence: boolean }[]>([{ check: '', evidence: true }]);

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
