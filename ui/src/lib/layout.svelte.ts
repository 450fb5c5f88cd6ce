// The window's arrangement: the sidebar folded or not, the live screen's share of the work
// area, developer tools, and which sheet (steps, check, reusable, saved tasks, console) covers
// the conversation column. What the person chose is kept across restarts by Rust
// (src-tauri/src/layout); the open sheet is not (a restart opens on the conversation).
import type { WindowLayout } from './api';

export type Sheet =
  | { kind: 'steps' | 'check' | 'reusable' | 'console' }
  | { kind: 'library'; taskId: string | null };

export const DEFAULT_LIVE_SHARE = 0.6;
/** While a task runs the live screen is the hero: never less than this share (with the
 * sidebar folded, a third of a 1180×760 window: BENCHMARKS.md, "The live stage"). */
export const RUNNING_LIVE_SHARE = 0.62;
export const MIN_LIVE_SHARE = 0.25;
export const MAX_LIVE_SHARE = 0.8;

type Store = {
  get: () => Promise<WindowLayout>;
  set: (layout: WindowLayout) => Promise<WindowLayout>;
};

export class Layout {
  sidebarFolded = $state(false);
  liveShare = $state(DEFAULT_LIVE_SHARE);
  developerTools = $state(false);
  /** The Demo's first-run card was put away; "done" until the kept layout says otherwise, so
   *  it never flashes up on a later start while the layout is read. */
  firstRunDone = $state(true);
  sheet = $state<Sheet | null>(null);
  settingsOpen = $state(false);
  /** Bumped when the saved tasks may have changed (a task saved, one removed). */
  savedTasksVersion = $state(0);

  constructor(private store: Store | null) {}

  async load(): Promise<void> {
    if (!this.store) return;
    try {
      const kept = await this.store.get();
      this.firstRunDone = kept.firstRunDone ?? false;
      this.sidebarFolded = kept.sidebarFolded ?? false;
      this.liveShare = clamp(kept.liveShare ?? DEFAULT_LIVE_SHARE);
      this.developerTools = kept.developerTools ?? false;
    } catch {
      // Not remembered: the default layout is a fine window.
    }
  }

  /** The live screen's share now: the person's choice, and at least 60% while a task runs. */
  effectiveShare(running: boolean): number {
    return running ? Math.max(this.liveShare, RUNNING_LIVE_SHARE) : this.liveShare;
  }

  setLiveShare(share: number, save = true): void {
    this.liveShare = clamp(share);
    if (save) this.save();
  }

  /** Whether the sidebar is folded now: the person's choice (it never folds by itself). */
  get folded(): boolean {
    return this.sidebarFolded;
  }

  toggleSidebar(): void {
    this.sidebarFolded = !this.sidebarFolded;
    this.save();
  }

  setDeveloperTools(on: boolean): void {
    this.developerTools = on;
    if (!on && this.sheet?.kind === 'console') this.sheet = null;
    this.save();
  }

  dismissFirstRun(): void {
    this.firstRunDone = true;
    this.save();
  }

  open(sheet: Sheet): void {
    this.sheet = sheet;
  }

  close(): void {
    const was = this.sheet?.kind;
    this.sheet = null;
    if (was === 'reusable' || was === 'library') this.savedTasksVersion++;
  }

  save(): void {
    const layout: WindowLayout = {
      sidebarFolded: this.sidebarFolded,
      liveShare: this.liveShare,
      developerTools: this.developerTools,
      firstRunDone: this.firstRunDone,
    };
    // A layout that could not be saved is only one not remembered next time.
    this.store?.set(layout).catch(() => {});
  }
}

function clamp(share: number): number {
  if (!Number.isFinite(share)) return DEFAULT_LIVE_SHARE;
  return Math.min(MAX_LIVE_SHARE, Math.max(MIN_LIVE_SHARE, share));
}
