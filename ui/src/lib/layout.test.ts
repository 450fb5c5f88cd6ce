import { describe, expect, it, vi } from 'vitest';
import { Layout, NARROW_WINDOW } from './layout.svelte';
import type { WindowLayout } from './api';

function store(kept: Partial<WindowLayout> = {}) {
  return {
    get: vi.fn(async () => ({ sidebarFolded: false, liveShare: 0.6, developerTools: false, ...kept })),
    set: vi.fn(async (l: WindowLayout) => l),
  };
}

describe('Layout', () => {
  it('reads what was kept, and saves each change', async () => {
    const s = store({ sidebarFolded: true, liveShare: 0.5 });
    const layout = new Layout(s);
    await layout.load();
    expect(layout.sidebarFolded).toBe(true);
    expect(layout.liveShare).toBe(0.5);
    layout.setWindowWidth(1400);
    layout.toggleSidebar();
    expect(s.set).toHaveBeenLastCalledWith({ sidebarFolded: false, sidebarOpenNarrow: false, liveShare: 0.5, developerTools: false, firstRunDone: false });
    layout.setDeveloperTools(true);
    expect(s.set).toHaveBeenLastCalledWith({ sidebarFolded: false, sidebarOpenNarrow: false, liveShare: 0.5, developerTools: true, firstRunDone: false });
  });

  it('shows the first-run card until it is put away, and keeps that', async () => {
    const s = store();
    const layout = new Layout(s);
    expect(layout.firstRunDone).toBe(true);
    await layout.load();
    expect(layout.firstRunDone).toBe(false);
    layout.dismissFirstRun();
    expect(layout.firstRunDone).toBe(true);
    expect(s.set).toHaveBeenLastCalledWith(expect.objectContaining({ firstRunDone: true }));
    const again = new Layout(store({ firstRunDone: true }));
    await again.load();
    expect(again.firstRunDone).toBe(true);
  });

  it('gives the live screen at least 62% while a task runs, the person’s share otherwise', () => {
    const layout = new Layout(null);
    layout.setLiveShare(0.4);
    expect(layout.effectiveShare(false)).toBe(0.4);
    expect(layout.effectiveShare(true)).toBe(0.62);
    layout.setLiveShare(0.75);
    expect(layout.effectiveShare(true)).toBe(0.75);
  });

  it('starts folded to its rail in the app’s own 1180×760 window, and keeps the person’s choice for each window class', async () => {
    const s = store();
    const layout = new Layout(s);
    await layout.load();
    // The app's own window is narrower than the fold width: folded at first sight.
    expect(NARROW_WINDOW).toBeGreaterThan(1180);
    layout.setWindowWidth(1180);
    expect(layout.folded).toBe(true);
    expect(s.set).not.toHaveBeenCalled();
    // One click opens it, and that is kept; resizing within the narrow range leaves it open.
    layout.toggleSidebar();
    expect(layout.folded).toBe(false);
    expect(s.set).toHaveBeenLastCalledWith(expect.objectContaining({ sidebarOpenNarrow: true, sidebarFolded: false }));
    layout.setWindowWidth(820);
    expect(layout.folded).toBe(false);
    // Wide: the wide window's own choice (open); folding it there leaves the narrow choice alone.
    layout.setWindowWidth(NARROW_WINDOW);
    expect(layout.folded).toBe(false);
    layout.toggleSidebar();
    expect(layout.folded).toBe(true);
    expect(s.set).toHaveBeenLastCalledWith(expect.objectContaining({ sidebarOpenNarrow: true, sidebarFolded: true }));
    layout.setWindowWidth(900);
    expect(layout.folded).toBe(false);
    layout.setWindowWidth(1400);
    expect(layout.folded).toBe(true);
    // A restart keeps both.
    const again = new Layout(store({ sidebarFolded: true, sidebarOpenNarrow: true }));
    await again.load();
    again.setWindowWidth(1180);
    expect(again.folded).toBe(false);
  });

  it('starts folded in a window that opens narrow unless the person opened it there', async () => {
    const layout = new Layout(store({ sidebarFolded: false }));
    layout.setWindowWidth(800);
    await layout.load();
    expect(layout.folded).toBe(true);
    layout.setWindowWidth(0);
    expect(layout.folded).toBe(true);
  });

  it('is folded before the page knows its width, as the app’s own window opens, so the sidebar never opens for a moment', async () => {
    const layout = new Layout(store());
    await layout.load();
    // A window not yet mapped reads 0 wide: the width is not known yet.
    layout.setWindowWidth(0);
    expect(layout.folded).toBe(true);
    layout.setWindowWidth(1400);
    expect(layout.folded).toBe(false);
  });

  it('keeps the share in range and does not save while dragging', () => {
    const s = store();
    const layout = new Layout(s);
    layout.setLiveShare(0.01, false);
    expect(layout.liveShare).toBe(0.25);
    expect(s.set).not.toHaveBeenCalled();
    layout.setLiveShare(Number.NaN);
    expect(layout.liveShare).toBe(0.6);
  });

  it('closes the console when developer tools go off, and reads saved tasks again after saving one', () => {
    const layout = new Layout(null);
    layout.open({ kind: 'console' });
    layout.setDeveloperTools(false);
    expect(layout.sheet).toBeNull();
    layout.open({ kind: 'reusable' });
    const before = layout.savedTasksVersion;
    layout.close();
    expect(layout.savedTasksVersion).toBe(before + 1);
  });
});
