// The composer's spending cap: the most the next task may cost, in dollars. It goes out with
// the message that starts a task; Rust stops the task when its cost reaches it
// (crates/core/src/conversations/spending_cap.rs). It starts from the default kept in the settings.
import type { Api } from '../../api';

/** The smallest cap, as Rust checks it. */
export const SMALLEST_CAP = 0.01;

/** What the box holds as a cap: `null` when blank, `undefined` when it is no sum of money. */
export function parseCap(text: string): number | null | undefined {
  const t = text.trim().replace(/^\$/, '').replace(',', '.');
  if (!t) return null;
  if (!/^\d*\.?\d*$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n >= SMALLEST_CAP ? n : undefined;
}

export class ComposerCap {
  text = $state('');
  defaultCap = $state<number | null>(null);
  private loaded = false;

  /** The cap to send; `undefined` while the box holds no sum of money (nothing is sent). */
  get value(): number | null | undefined {
    return parseCap(this.text);
  }

  get invalid(): boolean {
    return this.value === undefined;
  }

  /** Reads the default once and fills an untouched box with it. */
  async load(api: Api): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    try {
      this.defaultCap = await api.defaultCap();
    } catch {
      this.defaultCap = null;
    }
    if (!this.text && this.defaultCap != null) this.text = this.defaultCap.toFixed(2);
  }

  /** The default changed elsewhere (Settings, the first-use offer): a box that still held the
   * old default, or nothing, now holds the new one; one the person typed in keeps theirs. */
  adopt(cap: number | null): void {
    const old = this.defaultCap;
    this.defaultCap = cap;
    const untouched = !this.text.trim() || (old != null && this.value === old);
    if (untouched) this.text = cap != null ? cap.toFixed(2) : '';
  }

  /** Keeps what the box holds as every new task's cap. */
  async makeDefault(api: Api): Promise<void> {
    const value = this.value;
    if (value === undefined) return;
    this.defaultCap = await api.setDefaultCap(value);
  }
}

export const composerCap = new ComposerCap();

/**
 * "Set a spending limit for every task?", offered once: after the person's first task is
 * sent, to someone without a default cap. Either answer is kept (in the settings) and it is
 * never asked again.
 */
export class CapOffer {
  shown = $state(false);
  private checked = false;

  /** After a task was sent: shows the offer when the settings say it is still owed. */
  async afterSend(api: Pick<Api, 'capOfferPending'>): Promise<void> {
    if (this.checked) return;
    this.checked = true;
    try {
      this.shown = await api.capOfferPending();
    } catch {
      this.shown = false;
    }
  }

  /** `cap`: the limit for every task; `null`: no, thanks. */
  async answer(api: Pick<Api, 'answerCapOffer'>, cap: number | null): Promise<void> {
    const kept = await api.answerCapOffer(cap);
    this.shown = false;
    composerCap.adopt(kept);
  }
}

export const capOffer = new CapOffer();
