import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import TaskPanel from './TaskPanel.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, machine } from '../../tests/fake-api';

describe('TaskPanel', () => {
  it('shows a running task with its steps, cost and a Stop button', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation({
      status: 'running',
      items: [
        { kind: 'user', text: 'Check the weather', joined: false },
        { kind: 'narration', text: 'Opening the browser' },
        { kind: 'user', text: 'In Celsius please', joined: true },
      ],
      usage: {
        inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0,
        costUsd: 0.04, modelCalls: 2, byModel: {},
      },
    });
    render(TaskPanel, { app: state, machine: machine() });
    expect(screen.getByTestId('status-chip')).toHaveAttribute('data-status', 'running');
    expect(screen.getByTestId('task-usage')).toHaveTextContent('$0.04');
    expect(screen.getByTestId('usage-button')).not.toHaveTextContent(/token/i);
    expect(screen.getByTestId('joined-note')).toBeInTheDocument();
    expect(screen.getByTestId('thread-steps')).toHaveTextContent('Opening the browser');
    await userEvent.click(screen.getByTestId('stop-button'));
    await waitFor(() => expect(api.stopTask).toHaveBeenCalledWith('c1'));
  });

  it('reads "Stopping…" until the service answers Stop, then what it answered', async () => {
    const state = new AppState(fakeApi());
    const items = [{ kind: 'user' as const, text: 'Check the weather', joined: false }];
    state.conversation = conversation({ status: 'running', stopping: true, items });
    const { rerender } = render(TaskPanel, { app: state, machine: machine() });
    expect(screen.getByTestId('thread-stopping')).toHaveTextContent('Stopping…');
    expect(screen.queryByTestId('thread-working')).not.toBeInTheDocument();
    expect(screen.getByTestId('stop-button')).toBeDisabled();
    expect(screen.getByTestId('stop-button')).toHaveTextContent('Stopping…');

    state.conversation = conversation({
      status: 'stopped',
      items: [...items, { kind: 'notice', what: 'nothingToStop' }],
    });
    await rerender({ app: state, machine: machine() });
    expect(screen.queryByTestId('thread-stopping')).not.toBeInTheDocument();
    expect(screen.getByText('Nothing was running, so there was nothing to stop.')).toBeInTheDocument();
    expect(screen.queryByTestId('stop-button')).not.toBeInTheDocument();
  });

  it('says the live screen in words: the latest narration, politely, only while the task runs', async () => {
    const state = new AppState(fakeApi());
    const items = [
      { kind: 'user' as const, text: 'Check the weather', joined: false },
      { kind: 'narration' as const, text: 'Opening the browser' },
      { kind: 'narration' as const, text: 'Reading the forecast' },
    ];
    state.conversation = conversation({ status: 'running', items });
    render(TaskPanel, { app: state, machine: machine() });
    const region = screen.getByTestId('live-narration');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent(/^Reading the forecast$/);
    state.conversation = conversation({ status: 'succeeded', items });
    await waitFor(() => expect(screen.getByTestId('live-narration').textContent).toBe(''));
  });

  it('renders the final answer as Markdown and shows a limit banner', () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation({
      status: 'failed',
      items: [{ kind: 'answer', text: 'It is **sunny**' }],
      failure: { code: 'insufficient_credits', retryAt: Date.now() + 3_600_000 },
    });
    render(TaskPanel, { app: state, machine: machine() });
    expect(screen.getByTestId('final-answer').innerHTML).toContain('<strong>sunny</strong>');
    expect(screen.getByTestId('limit-banner')).toHaveTextContent('You are out of credits');
    expect(screen.getByTestId('limit-banner-countdown').textContent).toMatch(/h|min/);
    expect(screen.queryByTestId('stop-button')).toBeNull();
  });
});
