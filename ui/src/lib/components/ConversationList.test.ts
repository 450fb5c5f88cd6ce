import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ConversationList from './ConversationList.svelte';

const rows = [
  { id: 'now', machineId: 'm1', title: 'Weather in Porto', updatedAt: 2, status: 'idle' as const, current: true },
  { id: 'old', machineId: 'm1', title: 'Weather in Lisbon', updatedAt: 3, status: 'succeeded' as const, current: false },
];

describe('ConversationList', () => {
  it('marks the current conversation and the finished ones, and opens the one clicked', async () => {
    const onOpen = vi.fn();
    render(ConversationList, { rows, openId: 'now', machineName: 'Design laptop', onOpen });
    const items = screen.getAllByTestId('conversation-row');
    expect(items.map((i) => i.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Weather in Porto Current',
      'Weather in Lisbon Finished',
    ]);
    expect(items[0].getAttribute('aria-current')).toBe('true');
    expect(items[1].getAttribute('aria-current')).toBeNull();
    await userEvent.click(items[1]);
    expect(onOpen).toHaveBeenCalledWith('old');
  });

  it('says the conversations are loading until they arrive, not an empty list', () => {
    render(ConversationList, { rows: [], openId: null, machineName: 'Design laptop', onOpen: vi.fn(), loading: true });
    expect(screen.getByTestId('conversations-loading').textContent).toBe('Loading your conversations…');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByTestId('conversation-list')).toBeNull();
  });

  it('shows nothing for a computer without conversations', () => {
    render(ConversationList, { rows: [], openId: null, machineName: 'Design laptop', onOpen: vi.fn() });
    expect(screen.queryByTestId('conversation-list')).toBeNull();
  });
});
