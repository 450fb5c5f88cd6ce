import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import Thread from './Thread.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, machine } from '../../tests/fake-api';
import type { ApprovalRequest } from '../api';

describe('Thread', () => {
  it('leads with the answer and folds how it was done under it, counting the agent’s actions', () => {
    render(Thread, {
      machine: machine(),
      conversation: conversation({
        status: 'succeeded',
        items: [
          { kind: 'user', text: 'Add up the table', joined: false },
          { kind: 'narration', text: 'I will open the spreadsheet' },
          { kind: 'tool', name: 'execute', title: 'Open Spreadsheet' },
          { kind: 'progress', text: 'Spreadsheet is open' },
          { kind: 'tool', name: 'execute', title: 'Read the results' },
          { kind: 'answer', text: '**The total is $1,284.50**' },
        ],
      }),
    });
    const items = screen.getAllByTestId(/^(thread-item|thread-steps)$/);
    const order = items.map((el) => el.dataset.kind ?? el.dataset.testid);
    expect(order.slice(0, 3)).toEqual(['user', 'answer', 'thread-steps']);
    const fold = screen.getByTestId('thread-steps');
    expect(within(fold).getByTestId('steps-toggle')).toHaveTextContent('How I did it (2 steps)');
    expect(fold.querySelector('details')?.open).toBe(false);
  });

  it('counts a step the stream never named, without a line for its bare tool name', () => {
    render(Thread, {
      machine: machine(),
      conversation: conversation({
        status: 'succeeded',
        items: [
          { kind: 'user', text: 'Look up the weather in Paris', joined: false },
          { kind: 'tool', name: 'execute', title: 'Open Browser' },
          { kind: 'tool', name: 'execute', title: null },
          { kind: 'answer', text: 'Paris: 21 °C' },
        ],
      }),
    });
    const fold = screen.getByTestId('thread-steps');
    expect(within(fold).getByTestId('steps-toggle')).toHaveTextContent('How I did it (2 steps)');
    expect(within(fold).getAllByTestId('thread-item').map((el) => el.textContent)).toEqual(['Open Browser']);
    expect(fold.textContent).not.toContain('execute');
  });

  it('draws the waiting card in the thread with Rust’s reading of it against the task’s words', () => {
    const card: ApprovalRequest = {
      approvalId: 'ap_1', kind: 'yesNo', questions: [], title: 'Delete the folder old-reports',
      description: '', approvalType: 'exec', isLinkOnly: false, approvalUrl: null,
      command: 'rm -r ~/Documents/old-reports', cwd: '/home/agent', expiresAt: null,
      task: 'Delete the old files in Downloads',
      reading: {
        destructive: true,
        deletes: [{ kind: 'folder', name: 'old-reports', place: { kind: 'within', folders: ['Documents'] } }],
        mismatch: [{ known: 'downloads', name: 'downloads' }],
      },
    };
    const app = new AppState(fakeApi());
    const c = conversation({
      status: 'needsApproval',
      pendingApproval: card,
      items: [{ kind: 'user', text: 'Delete the old files in Downloads', joined: false }],
    });
    app.conversation = c;
    render(Thread, { app, machine: machine(), conversation: c });
    const inThread = within(screen.getByTestId('thread'));
    expect(inThread.getByTestId('approval-card')).toHaveAttribute('data-destructive', 'true');
    expect(inThread.getByTestId('approval-mismatch')).toHaveTextContent('Your task named Downloads');
    expect(inThread.getByTestId('approval-approve')).toHaveTextContent('Delete folder');
  });

  it('says where the card is when it docks under the live screen, and draws no second one', () => {
    const app = new AppState(fakeApi());
    const c = conversation({
      status: 'needsApproval',
      pendingApproval: {
        approvalId: 'ap_2', kind: 'yesNo', questions: [], title: 'Send the email', description: '',
        approvalType: 'exec', isLinkOnly: false, approvalUrl: null, command: null, cwd: null, expiresAt: null,
        task: 'Send the report', reading: { destructive: false, deletes: [], mismatch: [] },
      },
      items: [{ kind: 'user', text: 'Send the report', joined: false }],
    });
    app.conversation = c;
    render(Thread, { app, machine: machine(), conversation: c, cardsAway: true });
    expect(screen.queryByTestId('approval-card')).toBeNull();
    expect(screen.getByTestId('thread-card-docked')).toHaveTextContent('under the live screen');
  });

  it('offers Stop now on the line of a task Porthole could not stop at its cap, while it runs', async () => {
    const api = fakeApi();
    const app = new AppState(api);
    const items = [
      { kind: 'user', text: 'Find the weather in Lisbon', joined: false },
      { kind: 'notice', what: 'notStoppedAtCap', capUsd: 0.02 },
    ] as const;
    const c = conversation({ status: 'running', items: [...items] });
    app.conversation = c;
    const { unmount } = render(Thread, { app, machine: machine(), conversation: c });
    const line = screen.getByText(/could not stop it/);
    expect(line).toHaveTextContent('This task reached your $0.02 cap, but Porthole could not stop it.');
    await fireEvent.click(within(line).getByTestId('stop-now'));
    expect(api.stopTask).toHaveBeenCalledWith(c.id);
    unmount();

    // Once the task has ended, the line stays and Stop goes.
    const ended = conversation({ status: 'stopped', items: [...items] });
    render(Thread, { app, machine: machine(), conversation: ended });
    expect(screen.getByText(/could not stop it/)).toBeInTheDocument();
    expect(screen.queryByTestId('stop-now')).toBeNull();
  });
});
