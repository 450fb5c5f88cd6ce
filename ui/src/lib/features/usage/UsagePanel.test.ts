import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import UsagePanel from './UsagePanel.svelte';
import { shares, byModel, sum } from './usage';
import type { TaskUsage, UsageView } from '../../api';
import { ApiError } from '../../ui-error';

const coffee: TaskUsage = {
  inputTokens: 12000, outputTokens: 800, costUsd: 0.0421, modelCalls: 3,
  byModel: {
    'acme/fast': { inputTokens: 2000, outputTokens: 300, costUsd: 0.0021, modelCalls: 2 },
    'acme/big': { inputTokens: 10000, outputTokens: 500, costUsd: 0.04, modelCalls: 1 },
  },
};
const report: TaskUsage = {
  inputTokens: 400000, outputTokens: 20000, costUsd: 1.2, modelCalls: 1,
  byModel: { 'acme/big': { inputTokens: 400000, outputTokens: 20000, costUsd: 1.2, modelCalls: 1 } },
};
const both = sum([coffee, report]);

function view(extra: Partial<UsageView> = {}): UsageView {
  return {
    task: report,
    session: both,
    tasks: [
      { turnId: 'turn_1', task: 'Look up the price of coffee', usage: coffee, running: false },
      { turnId: 'turn_2', task: 'Write an expensive report on tea', usage: report, running: false },
    ],
    sessionError: null,
    ...extra,
  };
}

const rows = () => screen.getAllByTestId('usage-task-row');
const barWidth = (row: HTMLElement) => (row.querySelector('.bar') as HTMLElement).style.width;

describe('Usage panel', () => {
  it('speaks money first: the conversation, this task, the costliest, the balance; tokens only in Details', async () => {
    const api = { conversationUsage: vi.fn(async () => view()) };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: report, running: false, creditsUsd: 18.5 });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.conversationUsage).toHaveBeenCalledWith('c1');
    expect(screen.getByTestId('usage-session-cost')).toHaveTextContent('$1.24');
    expect(screen.getByTestId('usage-this-task')).toHaveTextContent('This task: $1.20');
    expect(screen.getByTestId('usage-costliest')).toHaveTextContent('Most of it: “Write an expensive report on tea” ($1.20).');
    expect(screen.getByTestId('usage-left')).toHaveTextContent('$18.50 left on your account.');
    expect(screen.getByTestId('usage-panel')).not.toHaveTextContent(/tokens|acme/);
    await userEvent.click(screen.getByTestId('usage-details-toggle'));

    const [first, second] = rows();
    expect(first).toHaveTextContent('1. Look up the price of coffee');
    expect(within(first).getByTestId('usage-task-row-cost')).toHaveTextContent('$0.04');
    expect(within(first).getByTestId('usage-task-row-tokens')).toHaveTextContent('12.8k tokens in 3 calls');
    expect(within(first).getAllByTestId('usage-task-row-model').map((m) => m.textContent?.trim()))
      .toEqual(['AI model Big: 10.5k tokens · $0.04', 'AI model Fast: 2.3k tokens · < $0.01']);
    expect(second).toHaveTextContent('2. Write an expensive report on tea');
    expect(within(second).getByTestId('usage-task-row-cost')).toHaveTextContent('$1.20');

    // The chart: the costliest task fills the row, the other is in proportion.
    expect(barWidth(second)).toBe('100%');
    expect(parseFloat(barWidth(first))).toBeCloseTo((0.0421 / 1.2) * 100, 1);

    expect(screen.getByTestId('usage-session-input')).toHaveTextContent('412.0k');
    expect(screen.getAllByTestId('usage-session-model').map((r) => r.dataset.model)).toEqual(['acme/big', 'acme/fast']);
    expect(screen.queryByTestId('usage-untracked')).not.toBeInTheDocument();
  });

  it('shows the running task live beside the tasks before it', async () => {
    const api = {
      conversationUsage: vi.fn(async () => view({
        session: coffee,
        tasks: [
          { turnId: 'turn_1', task: 'Look up the price of coffee', usage: coffee, running: false },
          { turnId: 'turn_2', task: 'Write an expensive report on tea', usage: { ...report, costUsd: 0.1 }, running: true },
        ],
      })),
    };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: report, running: true });
    await waitFor(() => expect(rows()).toHaveLength(2));
    const second = rows()[1];
    expect(second).toHaveTextContent('running');
    // The live figures, not the copy the core read earlier.
    expect(within(second).getByTestId('usage-task-row-cost')).toHaveTextContent('$1.20');
    expect(rows()[0]).not.toHaveTextContent('running');
  });

  it('adds a running task the core has not kept yet', async () => {
    const api = { conversationUsage: vi.fn(async () => view({ session: coffee, tasks: view().tasks.slice(0, 1) })) };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: report, running: true });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[1]).toHaveTextContent('2. This task');
    expect(within(rows()[1]).getByTestId('usage-task-row-cost')).toHaveTextContent('$1.20');
  });

  it('says when the conversation counts tasks Porthole did not follow', async () => {
    const api = { conversationUsage: vi.fn(async () => view({ tasks: view().tasks.slice(1) })) };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: report, running: false });
    expect(await screen.findByTestId('usage-untracked')).toHaveTextContent('tasks Porthole did not follow');
  });

  it('says when there is nothing yet, and why the figures could not be read', async () => {
    const api = {
      conversationUsage: vi.fn(async (): Promise<UsageView> => {
        throw new ApiError({ code: 'network', title: 'The service could not be reached', detail: 'Check your connection.', retryAt: null, action: 'retry' });
      }),
    };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: null, running: true });
    expect(screen.getByTestId('usage-tasks-empty')).toBeInTheDocument();
    expect(screen.getByTestId('usage-session-cost')).toHaveTextContent('$0.00');
    await userEvent.click(screen.getByTestId('usage-details-toggle'));
    expect(screen.getByTestId('usage-session-empty')).toBeInTheDocument();
    expect(await screen.findByTestId('usage-error')).toHaveTextContent('The service could not be reached. Check your connection.');

    // Try again reads them once more.
    api.conversationUsage.mockImplementation(async () => view());
    await userEvent.click(screen.getByTestId('usage-retry'));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByTestId('usage-error')).not.toBeInTheDocument();
  });

  it("still lists the tasks, adding them up, when the conversation's total cannot be read", async () => {
    const api = {
      conversationUsage: vi.fn(async () => view({
        session: null,
        sessionError: { code: 'session_not_found', title: 'The conversation is gone', detail: 'The service no longer knows it.', retryAt: null, action: null },
      })),
    };
    render(UsagePanel, { api, conversationId: 'c1', taskUsage: report, running: false });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByTestId('usage-session-cost')).toHaveTextContent('$1.24');
    expect(screen.getByTestId('usage-error')).toHaveTextContent('The conversation is gone. The service no longer knows it.');
  });

  it('scales the chart by cost, or by tokens when nothing cost anything', () => {
    expect(shares(byModel(coffee))).toEqual([1, 0.0525]);
    const free = byModel({ byModel: { a: { inputTokens: 10, outputTokens: 0 }, b: { inputTokens: 5, outputTokens: 0 } } });
    expect(shares(free)).toEqual([1, 0.5]);
  });

  it('adds tasks up, by model too', () => {
    expect(both.inputTokens).toBe(412000);
    expect(both.costUsd).toBeCloseTo(1.2421, 6);
    expect(both.byModel?.['acme/big']?.inputTokens).toBe(410000);
    expect(both.byModel?.['acme/fast']?.costUsd).toBeCloseTo(0.0021, 6);
  });
});
