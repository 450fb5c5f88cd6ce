import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';

const opened: string[] = [];
vi.mock('../api', () => ({
  api: {
    listMachines: async () => [
      { machineId: 'a', name: 'Design laptop', cloud: true },
      { machineId: 'b', name: 'Research box', cloud: true },
      { machineId: 'c', name: "Ada's MacBook", cloud: false },
    ],
    wakeMachine: async () => null,
  },
  liveApi: {
    onStatus: async () => () => {},
    open: async (machineId: string) => {
      opened.push(machineId);
      return opened.length;
    },
    close: async () => null,
    ack: async () => null,
    pause: async () => null,
    resume: async () => null,
    stats: async () => null,
    saveSnapshot: async () => null,
  },
}));

const { default: LiveGrid } = await import('./LiveGrid.svelte');
const { AppState } = await import('../app.svelte');
const { fakeApi } = await import('../../tests/fake-api');

describe('LiveGrid', () => {
  it('shows every cloud computer live at once, each its own stream', async () => {
    const onclose = vi.fn();
    const onopen = vi.fn();
    render(LiveGrid, { computers: new AppState(fakeApi()), onclose, onopen });
    await waitFor(() => expect(screen.getAllByTestId('live-grid-tile')).toHaveLength(2));
    const names = screen.getAllByTestId('live-grid-tile').map((t) => t.querySelector('.name')?.textContent);
    expect(names).toEqual(['Design laptop', 'Research box']);
    // Each tile says how its computer is, and opens it.
    expect(screen.getAllByTestId('live-grid-state').every((s) => (s.textContent ?? '').length > 0)).toBe(true);
    screen.getAllByTestId('live-grid-tile-open')[1].click();
    expect(onopen).toHaveBeenCalledWith('b');
    onclose.mockClear();
    await waitFor(() => expect(opened.sort()).toEqual(['a', 'b']));
    screen.getByTestId('live-grid-close').click();
    expect(onclose).toHaveBeenCalled();
  });

  it('takes the keyboard to × when it opens and gives it back when it closes', async () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const { unmount } = render(LiveGrid, { computers: new AppState(fakeApi()), onclose: () => {} });
    expect(document.activeElement).toBe(screen.getByTestId('live-grid-close'));
    unmount();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });
});
