import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import WaitingList from './WaitingList.svelte';

function held(id: string, text: string) {
  return {
    id,
    request: {
      conversationId: 'c1', text, model: null, attachments: [],
      options: { recordSteps: false, outputSchema: '', successCriteria: null },
    },
  };
}

describe('WaitingList', () => {
  it('shows each held message with its place and removes the one asked', async () => {
    const onRemove = vi.fn();
    render(WaitingList, { waiting: [held('w1', 'Weather in Oslo'), held('w2', 'Weather in Rome')], onRemove });
    const items = screen.getAllByTestId('waiting-item');
    expect(items.map((i) => i.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      '1 Weather in Oslo Remove',
      '2 Weather in Rome Remove',
    ]);
    await userEvent.click(screen.getAllByTestId('waiting-remove')[1]);
    expect(onRemove).toHaveBeenCalledWith('w2');
  });

  it('shows nothing when nothing waits', () => {
    render(WaitingList, { waiting: [], onRemove: vi.fn() });
    expect(screen.queryByTestId('waiting-list')).toBeNull();
  });
});
