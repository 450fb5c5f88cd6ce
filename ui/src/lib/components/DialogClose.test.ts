// Every dialog closes one way: × at its top right and Escape, and the keyboard goes back to
// what opened it. No "Close" button at the bottom (Cancel belongs to forms only).
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import InboxEntry from '../features/inbox/InboxEntry.svelte';
import type { InboxApi } from '../features/inbox/api';
import SchedulesList from '../features/schedules/SchedulesList.svelte';
import type { SchedulesApi } from '../features/schedules/api';
import SettingsDialog from './SettingsDialog.svelte';
import SearchBox from '../features/search/SearchBox.svelte';
import { AppState } from '../app.svelte';
import { fakeApi } from '../../tests/fake-api';

function inboxApi(): InboxApi {
  return {
    get: vi.fn(async () => ({ items: [], count: 0 })),
    dismiss: vi.fn(async () => null),
    onChanged: vi.fn(async () => () => {}),
    onShow: vi.fn(async () => () => {}),
  } as unknown as InboxApi;
}

function schedulesApi(): SchedulesApi {
  return {
    list: vi.fn(async () => ({ rows: [], allPaused: false, autostartAsked: true, keepsRunning: false })),
    autostart: vi.fn(async () => false),
    onChanged: vi.fn(async () => () => {}),
  } as unknown as SchedulesApi;
}

const closeButtons = () => screen.queryAllByRole('button', { name: /^close$/i });

describe('closing a dialog', () => {
  it('Needs you: × and Escape close it, and the keyboard is back on "Needs you"', async () => {
    render(InboxEntry, { app: new AppState(fakeApi()), api: inboxApi() });
    const entry = screen.getByTestId('inbox-open');
    await userEvent.click(entry);
    expect(screen.getByTestId('inbox')).toBeInTheDocument();
    // Only the ×, named "Close" for screen readers; no second button with the word.
    expect(closeButtons()).toHaveLength(1);
    expect(closeButtons()[0]).toHaveTextContent('×');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('inbox')).toBeNull();
    expect(entry).toHaveFocus();

    await userEvent.click(entry);
    await userEvent.click(screen.getByTestId('inbox-close'));
    expect(screen.queryByTestId('inbox')).toBeNull();
    expect(entry).toHaveFocus();
  });

  it('Schedules: × and Escape close it', async () => {
    const onclose = vi.fn();
    render(SchedulesList, { api: schedulesApi(), onclose });
    await screen.findByTestId('schedules-empty');
    expect(closeButtons()).toHaveLength(1);
    await userEvent.click(screen.getByTestId('schedules-close'));
    expect(onclose).toHaveBeenCalledTimes(1);
    screen.getByTestId('schedules-list').focus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(onclose).toHaveBeenCalledTimes(2));
  });

  it('Settings: one ×, and Escape', async () => {
    const onclose = vi.fn();
    render(SettingsDialog, { developerTools: false, onchange: () => {}, onclose });
    expect(closeButtons()).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    expect(onclose).toHaveBeenCalled();
  });
});

describe('the search box', () => {
  it('gives the keyboard back to what opened it when Escape closes it', async () => {
    render(SearchBox, { app: new AppState(fakeApi({ searchHistory: async () => [] })) });
    const trigger = screen.getByTestId('search-open');
    await userEvent.click(trigger);
    await waitFor(() => expect(screen.getByTestId('search-input')).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('search-box')).toBeNull();
    expect(trigger).toHaveFocus();
  });
});

describe('Settings', () => {
  it('holds "Record steps", the same choice as under the composer’s ⋯, kept for next time', async () => {
    const { composerOptions, RECORD_STEPS_KEY } = await import('../features/advanced/options.svelte');
    composerOptions.recordSteps = true;
    render(SettingsDialog, { developerTools: false, onchange: () => {}, onclose: () => {} });
    const box = screen.getByTestId('setting-record-steps');
    expect(box).toBeChecked();
    await userEvent.click(box);
    expect(composerOptions.recordSteps).toBe(false);
    expect(localStorage.getItem(RECORD_STEPS_KEY)).toBe('false');
    composerOptions.recordSteps = true;
  });
});
