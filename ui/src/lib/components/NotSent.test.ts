import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import TaskPanel from './TaskPanel.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, machine, uiError } from '../../tests/fake-api';

const notSent = uiError({
  code: 'message_not_sent',
  title: 'Your message was not sent',
  detail: 'The service did not take your message, even sent again. Send it again in a moment.',
  action: 'retry',
});
const request = {
  conversationId: 'c1', text: 'Check the weather', model: null, attachments: [],
  options: { recordSteps: false, outputSchema: '', successCriteria: null },
};

describe('A message the service did not take', () => {
  it('stays in the thread marked Not sent, with a Retry that sends it again', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation({
      status: 'idle',
      items: [
        { kind: 'user', text: 'Check the weather', joined: false, attachments: [] },
        { kind: 'notSent', error: notSent },
      ],
      unsent: request,
    });
    render(TaskPanel, { app: state, machine: machine() });
    expect(screen.getByText('Check the weather')).toBeInTheDocument();
    const line = screen.getAllByTestId('thread-item').find((li) => li.dataset.kind === 'notSent')!;
    expect(line).toHaveTextContent('Not sent');
    expect(line).toHaveTextContent('Send it again in a moment.');
    // Nothing started: no failed-task look.
    expect(screen.getByTestId('status-chip')).toHaveAttribute('data-status', 'idle');
    await userEvent.click(screen.getByTestId('retry-send'));
    await waitFor(() => expect(api.retrySend).toHaveBeenCalledWith('c1'));
    expect(api.sendMessage).not.toHaveBeenCalled();
  });

  it('offers Retry on the latest unsent message only, and not once it was sent', () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation({
      status: 'succeeded',
      items: [
        { kind: 'user', text: 'Check the weather', joined: false, attachments: [] },
        { kind: 'notSent', error: notSent },
        { kind: 'answer', text: 'Sunny' },
      ],
      unsent: null,
    });
    render(TaskPanel, { app: state, machine: machine() });
    expect(screen.getByText('Not sent')).toBeInTheDocument();
    expect(screen.queryByTestId('retry-send')).toBeNull();
  });

  it('says when it is not known whether it was sent', () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation({
      items: [
        { kind: 'user', text: 'Check the weather', joined: false, attachments: [] },
        { kind: 'notSent', error: uiError({ code: 'message_not_known_sent', detail: 'Porthole closed while sending it.' }) },
      ],
      unsent: request,
    });
    render(TaskPanel, { app: state, machine: machine() });
    expect(screen.getByText('Maybe not sent')).toBeInTheDocument();
    expect(screen.getByTestId('retry-send')).toBeInTheDocument();
  });
});

describe('A running task while the network is gone', () => {
  it('reads Reconnecting, not failed', () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation({
      status: 'running',
      reconnecting: true,
      items: [{ kind: 'user', text: 'Check the weather', joined: false, attachments: [] }],
    });
    render(TaskPanel, { app: state, machine: machine() });
    expect(screen.getByTestId('status-chip')).toHaveTextContent('Reconnecting…');
    expect(screen.getByTestId('status-chip')).toHaveAttribute('data-status', 'running');
    expect(screen.getByTestId('thread-reconnecting')).toBeInTheDocument();
    expect(screen.queryByTestId('thread-working')).toBeNull();
  });
});
