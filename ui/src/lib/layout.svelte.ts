// The window's arrangement: the sidebar folded or not, the live screen's share of the work
// area, developer tools, and which sheet (steps, check, reusable, saved tasks, console) covers
// the conversation column. What the person chose is kept across restarts by Rust
// (src-tauri/src/layout); the open sheet is not (a restart opens on the conversation).
import type { WindowLayout } from './api';

export type Sheet =
  | { kind: 'steps' | 'check' | 'reusable' | 'console' }
  /** A task's film; without `filmId`, the conversation's latest. */
  | { kind: 'film'; filmId?: string }
  /** A task's film, to hide parts of and save as a video. */
  | { kind: 'video' }
  | { kind: 'library'; taskId: string | null };

export const DEFAULT_LIVE_SHARE = 0.6;
/** While a task runs the live screen is the hero: never less than this share (with the
 * sidebar folded, a third of a 1180×760 window: BENCHMARKS.md, "The live stage"). */
export const RUNNING_LIVE_SHARE = 0.62;
export const MIN_LIVE_SHARE = 0.25;
export const MAX_LIVE_SHARE = 0.8;
/**
 * Under this window width the sidebar starts folded to its rail (which keeps », search, the
 * "Needs you" count and the computers: RailMachines.svelte). Chosen over a denser layout with the sidebar open: at the app's own
 * 1180×760 window the sidebar (272 px) leaves a 908 px work area, and a picture of a third of
 * the window (16:10, about 692×433) beside it leaves the conversation about 216 px, too narrow
 * to read or type in; stacking the thread under the picture leaves it under 100 px. Folded,
 * the picture takes 35% with a 434 px conversation (BENCHMARKS.md, "The live stage"). 1200 px
 * is where Material 3 moves from a navigation rail to a drawer (its "large" window class);
 * many desktop apps fold their sidebars about there. One click (») or Ctrl+B opens it, and
 * that choice is kept (sidebarOpenNarrow), so a person who wants it opens it once.
 */
export const NARROW_WINDOW = 1200;

type Store = {
  get: () => Promise<WindowLayout>;
  set: (layout: WindowLayout) => Promise<WindowLayout>;
};

export class Layout {
  /** The person's fold in a wide window: kept across restarts. */
  sidebarFolded = $state(false);
  /** The window is narrower than NARROW_WINDOW. Until the page knows its width (a window not
   *  yet mapped can read 0 wide, more often on a busy machine) it is taken as the app's own
   *  1180 px window, which is narrow: otherwise the sidebar opened at start and folded a moment
   *  later, under a click already on its way. */
  narrow = $state(true);
  /** The person opened the sidebar in a narrow window: kept across restarts and resizes,
   *  apart from the wide window's choice (each window class keeps its own). */
  sidebarOpenNarrow = $state(false);
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
      this.sidebarOpenNarrow = kept.sidebarOpenNarrow ?? false;
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

  /** Whether the sidebar is folded now: in a narrow window folded unless the person opened it
   *  there, otherwise the person's wide-window choice. */
  get folded(): boolean {
    return this.narrow ? !this.sidebarOpenNarrow : this.sidebarFolded;
  }

  /**
   * The window's width, at start and on every resize: it says which of the two kept choices
   * applies. Never a task starting or ending, which folded it under a person using the
   * schedules list or clicking a computer's row (withdrawn in 16448dd): only a resize, the
   * person's own doing, so nothing moves under them mid-action.
   */
  setWindowWidth(width: number): void {
    if (!(width > 0)) return;
    this.narrow = width < NARROW_WINDOW;
  }

  toggleSidebar(): void {
    if (this.narrow) this.sidebarOpenNarrow = !this.sidebarOpenNarrow;
    else this.sidebarFolded = !this.sidebarFolded;
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
      sidebarOpenNarrow: this.sidebarOpenNarrow,
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
