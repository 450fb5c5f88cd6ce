import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import UsageButton from './UsageButton.svelte';
import { sum } from './usage';
import type { TaskUsage, UsageView } from '../../api';

const small: TaskUsage = { inputTokens: 9000, outputTokens: 700, costUsd: 0.0512, modelCalls: 4, byModel: {} };
const big: TaskUsage = { inputTokens: 900000, outputTokens: 9000, costUsd: 7.004, modelCalls: 2, byModel: {} };

describe('Usage in the header', () => {
  it('shows this task in dollars only, and the popover says the same figure beside the conversation’s', async () => {
    const view: UsageView = {
      task: big,
      session: sum([small, big]),
      tasks: [
        { turnId: 't1', task: 'Look up the price of coffee', usage: small, running: false },
        { turnId: 't2', task: 'Write an expensive report on tea', usage: big, running: false },
      ],
      sessionError: null,
    };
    const api = { conversationUsage: vi.fn(async () => view) };
    render(UsageButton, { api, conversationId: 'c1', taskUsage: big, running: false, creditsUsd: 17.95 });
    const button = screen.getByTestId('usage-button');
    expect(button).toHaveTextContent('This task $7.00');
    expect(button).not.toHaveTextContent(/token/i);
    await userEvent.click(button);
    const popover = screen.getByTestId('usage-popover');
    await waitFor(() => expect(screen.getByTestId('usage-session-cost')).toHaveTextContent('$7.06'));
    // One computation: the header's figure is the popover's "This task".
    expect(screen.getByTestId('usage-this-task')).toHaveTextContent(`This task: ${screen.getByTestId('task-usage').textContent}`);
    expect(popover).toHaveTextContent('$17.95 left on your account.');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('usage-popover')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('says Cost before the task’s first model call', () => {
    render(UsageButton, { api: { conversationUsage: vi.fn(async () => ({ task: null, session: null, tasks: [], sessionError: null })) },
      conversationId: 'c1', taskUsage: null, running: true });
    expect(screen.getByTestId('usage-button')).toHaveTextContent('Cost');
  });
});
