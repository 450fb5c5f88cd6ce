import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import SearchBox from './SearchBox.svelte';
import SidebarRail from '../../components/SidebarRail.svelte';
import { Layout } from '../../layout.svelte';
import { AppState } from '../../app.svelte';
import { fakeApi, machine, uiError } from '../../../tests/fake-api';
import { ApiError } from '../../ui-error';
import type { SearchHit, ThreadItem } from '../../api';
import { drawnAt } from './jump';
import { excerptParts } from './excerpt';

// The folded sidebar's rail shows the "Needs you" badge, which reads the inbox through its own
// module: a quiet one here, not the window's IPC (absent in this test).
vi.mock('../inbox/api', () => ({
  inboxApi: {
    get: vi.fn(async () => ({ items: [], count: 0 })),
    dismiss: vi.fn(async () => null),
    onChanged: vi.fn(async () => () => {}),
    onShow: vi.fn(async () => () => {}),
  },
}));

const hit: SearchHit = {
  conversationId: 'c2', machineId: 'm1', title: 'Weather in Oslo', item: 3, kind: 'answer',
  excerpt: 'It is \u0002sunny\u0003 in Oslo',
};

describe('search', () => {
  it('opens with Ctrl+K, asks as the person types, and marks the words found', async () => {
    const searchHistory = vi.fn(async () => [hit]);
    const app = new AppState(fakeApi({ searchHistory }));
    app.machines = [machine()];
    render(SearchBox, { app });
    await userEvent.keyboard('{Control>}k{/Control}');
    const input = await screen.findByTestId('search-input');
    await userEvent.type(input, 'sun');
    await waitFor(() => expect(searchHistory).toHaveBeenLastCalledWith('sun'));
    const found = await screen.findByTestId('search-hit');
    expect(found.textContent).toContain('Design laptop · Weather in Oslo');
    expect(found.querySelector('mark')?.textContent).toBe('sunny');
  });

  it('opens with Ctrl+K and from the rail while the sidebar is folded', async () => {
    const layout = new Layout(null);
    layout.sidebarFolded = true;
    render(SidebarRail, { app: new AppState(fakeApi({ searchHistory: async () => [] })), layout });
    await userEvent.keyboard('{Control>}k{/Control}');
    expect(await screen.findByTestId('search-box')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('search-box')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Search conversations' }));
    expect(await screen.findByTestId('search-input')).toHaveFocus();
  });

  it('opening a hit opens its computer and conversation', async () => {
    const app = new AppState(fakeApi({ searchHistory: async () => [hit] }));
    const select = vi.spyOn(app, 'selectMachine').mockResolvedValue();
    render(SearchBox, { app });
    await userEvent.click(screen.getByTestId('search-open'));
    await userEvent.type(await screen.findByTestId('search-input'), 'sunny');
    await userEvent.click(await screen.findByTestId('search-hit'));
    expect(select).toHaveBeenCalledWith('m1', 'c2');
    expect(screen.queryByTestId('search-box')).toBeNull();
  });

  it('says when nothing is found, and why search failed', async () => {
    const searchHistory = vi.fn(async (typed: string) => {
      if (typed === 'broken') throw new ApiError(uiError({ title: "Couldn't save", detail: 'Check free disk space.' }));
      return [];
    });
    render(SearchBox, { app: new AppState(fakeApi({ searchHistory })) });
    await userEvent.click(screen.getByTestId('search-open'));
    const input = await screen.findByTestId('search-input');
    await userEvent.type(input, 'xylophone');
    expect((await screen.findByTestId('search-empty')).textContent).toContain('xylophone');
    await userEvent.clear(input);
    await userEvent.type(input, 'broken');
    expect((await screen.findByTestId('search-error')).textContent).toContain('Check free disk space.');
  });

  it('finds a line where the thread draws it: an answer before the steps that led to it', () => {
    const items: ThreadItem[] = [
      { kind: 'user', text: 'task', joined: false, attachments: [] },
      { kind: 'narration', text: 'n' },
      { kind: 'progress', text: 'p' },
      { kind: 'answer', text: 'a' },
    ];
    expect(drawnAt(items, 0)).toBe(0);
    expect(drawnAt(items, 3)).toBe(1);
    expect(drawnAt(items, 1)).toBe(2);
    expect(drawnAt(items, 9)).toBe(-1);
  });

  it('splits an excerpt at its marks', () => {
    expect(excerptParts('a \u0002b\u0003 c')).toEqual([
      { text: 'a ', found: false },
      { text: 'b', found: true },
      { text: ' c', found: false },
    ]);
    expect(excerptParts('')).toEqual([]);
  });
});
