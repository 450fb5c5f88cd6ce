import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import UsagePanel from './UsagePanel.svelte';
import { shares, byModel } from './usage';
import type { TaskUsage } from '../../api';

const task: TaskUsage = {
  inputTokens: 12000, outputTokens: 800, costUsd: 0.0421, modelCalls: 3,
  byModel: {
    'acme/fast': { inputTokens: 2000, outputTokens: 300, costUsd: 0.0021, modelCalls: 2 },
    'acme/big': { inputTokens: 10000, outputTokens: 500, costUsd: 0.04, modelCalls: 1 },
  },
};

describe('Usage panel', () => {
  it('shows the task and the whole conversation, by model, biggest cost first', async () => {
    const session: TaskUsage = { ...task, costUsd: 0.5, inputTokens: 90000 };
    const api = { conversationUsage: vi.fn(async () => ({ task, session })) };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: task, running: false });
    expect(await screen.findByTestId('usage-session-cost')).toHaveTextContent('$0.50');
    expect(screen.getByTestId('usage-task-cost')).toHaveTextContent('$0.04');
    expect(screen.getByTestId('usage-task-input')).toHaveTextContent('12.0k');
    const rows = screen.getAllByTestId('usage-task-model').map((r) => r.dataset.model);
    expect(rows).toEqual(['acme/big', 'acme/fast']);
    expect(api.conversationUsage).toHaveBeenCalledWith('c1');
  });

  it('waits for the task to stop before reading the session, and says when there is nothing yet', () => {
    const api = { conversationUsage: vi.fn() };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: null, running: true });
    expect(screen.getByTestId('usage-task-empty')).toBeInTheDocument();
    expect(api.conversationUsage).not.toHaveBeenCalled();
  });

  it('scales the chart by cost, or by tokens when nothing cost anything', () => {
    expect(shares(byModel(task))).toEqual([1, 0.0525]);
    const free = byModel({ byModel: { a: { inputTokens: 10, outputTokens: 0 }, b: { inputTokens: 5, outputTokens: 0 } } });
    expect(shares(free)).toEqual([1, 0.5]);
  });
});
