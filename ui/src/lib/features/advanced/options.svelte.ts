// The composer's extra settings (Record steps, output schema, success criteria), per computer.
// They are handed to Rust just before a send, and only when they changed, so a plain send
// costs no extra call.
import { api } from '../../api';
import type { Criteria, SendOptions } from '../../api';

export type CriteriaMode = 'sentence' | 'checks';

export class ComposerOptions {
  recordSteps = $state(false);
  advancedOpen = $state(false);
  outputSchema = $state('');
  criteriaMode = $state<CriteriaMode>('sentence');
  sentence = $state('');
  checks = $state<{ check: string; evidence: boolean }[]>([{ check: '', evidence: true }]);
  /** Changed since last handed to Rust, per computer. */
  private sent: Record<string, string> = {};

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

  /** Hands the options to Rust if they changed for this computer; throws a UiError on a bad schema. */
  async apply(machineId: string): Promise<void> {
    const options = this.options();
    const key = JSON.stringify(options);
    const last = this.sent[machineId] ?? JSON.stringify(new ComposerOptions().options());
    if (key === last) return;
    await api.setSendOptions(machineId, options);
    this.sent[machineId] = key;
  }
}

export const composerOptions = new ComposerOptions();
