import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { ReusableTask } from '../api';
import { conversation, machine } from '../../tests/fake-api';

// Only the app's api module is replaced: saving and the saved tasks come through it.
const api = vi.hoisted(() => ({
  draftReusable: vi.fn(),
  learnReusable: vi.fn(),
  listReusable: vi.fn(),
}));
vi.mock('../api', () => ({ api, schedulesApi: { defaultCap: vi.fn(async () => null), estimate: vi.fn(async () => ({ runs: 0, perRunUsd: null, perDayUsd: null })) } }));

import TaskSheet from './TaskSheet.svelte';

// jsdom lays nothing out; CodeMirror (the learned code) measures text ranges.
Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

const saved: ReusableTask = {
  id: 'r7', scope: 'demo', title: 'Weather lookup', template: 'Look up the weather in {{place}}',
  parameters: [{ name: 'place', defaultValue: 'Paris' }], code: 'async function main() {}',
  errors: [], warnings: [], learnId: 'learn_7', sourceTurns: ['turn_1'], createdAt: null, changes: null, failedRuns: [],
};

describe('Saving a task, then "Open it"', () => {
  it('opens the saved task itself in "Saved tasks", never directions to a place', async () => {
    api.draftReusable.mockResolvedValue({
      turnId: 'turn_1', message: 'Look up the weather in Paris',
      suggestion: { template: 'Look up the weather in {{place}}', placeholders: [{ name: 'place', value: 'Paris' }] },
    });
    api.learnReusable.mockResolvedValue(saved);
    api.listReusable.mockResolvedValue([{ ...saved, id: 'r1', title: 'Older task' }, saved]);
    const onsaved = vi.fn();
    const done = conversation({ status: 'succeeded', follower: { turnId: 'turn_1' } as never });
    render(TaskSheet, { sheet: { kind: 'reusable' }, conversation: done, machine: machine(), onclose: () => {}, onsaved });

    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Save this task');
    await userEvent.click(await screen.findByTestId('reusable-learn'));
    const told = await screen.findByTestId('reusable-saved');
    expect(onsaved).toHaveBeenCalledTimes(1);
    expect(told).not.toHaveTextContent(/Reusable tasks|library/i);

    await userEvent.click(screen.getByRole('button', { name: 'Open it' }));
    expect(screen.getByTestId('sheet')).toHaveAttribute('data-kind', 'library');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Saved tasks');
    // The one just saved is the one chosen, not the first in the list.
    const items = await screen.findAllByTestId('library-item');
    expect(items).toHaveLength(2);
    expect(items[1]).toHaveClass('on');
    expect(items[0]).not.toHaveClass('on');
  });
});
