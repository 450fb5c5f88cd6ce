import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import InboxEntry from './InboxEntry.svelte';
import InboxList from './InboxList.svelte';
import Thread from '../../components/Thread.svelte';
import type { InboxApi, InboxItem, InboxView } from './api';
import { AppState } from '../../app.svelte';
import { conversation, fakeApi, machine, uiError } from '../../../tests/fake-api';
import type { ApprovalRequest } from '../../api';

const card: ApprovalRequest = {
  approvalId: 'ap_9',
  kind: 'yesNo',
  questions: [],
  title: 'Send the report by email',
  description: '',
  approvalType: 'exec',
  isLinkOnly: false,
  approvalUrl: null,
  command: null,
  cwd: null,
  expiresAt: Date.now() + 90_000,
  task: '',
  reading: { destructive: false, deletes: [], mismatch: null },
};

function item(over: Partial<InboxItem> = {}): InboxItem {
  return {
    key: 'card:ap_9', kind: 'card', machineId: 'm2', machineName: 'Research box', conversationId: 'c2',
    title: 'Send the report by email', approval: card, error: null, at: 1, ...over,
  };
}

function fake(view: InboxView): InboxApi {
  return {
    get: vi.fn(async () => view),
    dismiss: vi.fn(async () => null),
    onChanged: vi.fn(async () => () => {}),
    onShow: vi.fn(async () => () => {}),
  } as unknown as InboxApi;
}

describe('Inbox', () => {
  it('shows the count in the sidebar entry and opens the list', async () => {
    const api = fake({ items: [item()], count: 1 });
    render(InboxEntry, { app: new AppState(fakeApi()), api });
    const entry = screen.getByTestId('inbox-open');
    await waitFor(() => expect(entry).toHaveTextContent('Needs you (1)'));
    await userEvent.click(entry);
    expect(screen.getByTestId('inbox-where')).toHaveTextContent('Research box · Send the report by email');
    expect(screen.getByTestId('approval-countdown')).toBeInTheDocument();
  });

  it('answers a card of another conversation than the open one, by its own conversation', async () => {
    const appApi = fakeApi();
    const app = new AppState(appApi);
    app.conversation = conversation({ id: 'c1' });
    render(InboxList, { app, api: fake({ items: [item()], count: 1 }), view: { items: [item()], count: 1 },
      onclose: () => {} });
    await userEvent.click(screen.getByTestId('approval-approve'));
    expect(appApi.answerApproval).toHaveBeenCalledWith('c2', 'ap_9', true);
  });

  it('puts a failed task away, and opens a sign-in from its item', async () => {
    const api = fake({ items: [], count: 0 });
    const app = new AppState(fakeApi());
    const failed = item({ key: 'failed:c2:t1', kind: 'taskFailed', approval: null,
      error: uiError({ code: 'task_failed', title: 'The task did not finish', action: 'retry' }) });
    const signIn = item({ key: 'sign-in', kind: 'signIn', approval: null, machineId: null, machineName: null,
      conversationId: null, error: uiError() });
    const onclose = vi.fn();
    render(InboxList, { app, api, view: { items: [signIn, failed], count: 2 }, onclose });
    const rows = screen.getAllByTestId('inbox-item');
    expect(rows[1]).toHaveTextContent('The task did not finish');
    await userEvent.click(screen.getByTestId('inbox-dismiss'));
    expect(api.dismiss).toHaveBeenCalledWith('failed:c2:t1');
    await userEvent.click(screen.getAllByTestId('inbox-open-item')[0]);
    expect(app.connectOpen).toBe(true);
    expect(onclose).toHaveBeenCalled();
  });

  it('draws the card as its thread does, warning and all, from the one card both are given', () => {
    // Rust's card for "rm -r ~/Documents/old-reports", read against the task that asks.
    const asked: ApprovalRequest = {
      ...card, approvalId: 'ap_5', title: 'Delete the folder old-reports',
      description: 'Permanently delete the folder old-reports in Documents and the 14 files in it.',
      command: 'rm -r ~/Documents/old-reports', cwd: '/home/agent',
      task: 'Delete the old files in Downloads',
      reading: {
        destructive: true,
        deletes: [{ kind: 'folder', name: 'old-reports', place: { kind: 'within', folders: ['Documents'] } }],
        mismatch: [{ known: 'downloads', name: 'downloads' }],
      },
    };
    const c = conversation({
      id: 'c2', status: 'needsApproval', pendingApproval: asked, title: 'Look up the weather in Paris',
      items: [
        { kind: 'user', text: 'Look up the weather in Paris', joined: false },
        { kind: 'answer', text: 'Paris: 21 °C' },
        { kind: 'user', text: 'Delete the old files in Downloads', joined: false },
      ],
    });
    const app = new AppState(fakeApi());
    app.conversation = c;
    render(Thread, { app, machine: machine(), conversation: c });
    const inThread = screen.getByTestId('approval-card');
    const threadText = inThread.textContent?.replace(/\d+ min \d+ s(ec)?|\d+ s(ec)?/g, '');
    expect(screen.getByTestId('approval-mismatch')).toHaveTextContent('Not the place you named.');
    cleanup();

    // Rust heads the item with the task that asks, not the conversation's first task.
    const asking = item({ key: 'card:ap_5', conversationId: 'c2', machineName: 'Design laptop',
      title: 'Delete the old files in Downloads', approval: asked });
    render(InboxList, { app, api: fake({ items: [asking], count: 1 }), view: { items: [asking], count: 1 },
      onclose: () => {} });
    expect(screen.getByTestId('inbox-where')).toHaveTextContent('Design laptop · Delete the old files in Downloads');
    expect(screen.getByTestId('approval-mismatch'))
      .toHaveTextContent('Not the place you named. Your task named Downloads, but this deletes old-reports in Documents.');
    expect(screen.getByTestId('approval-card').textContent?.replace(/\d+ min \d+ s(ec)?|\d+ s(ec)?/g, ''))
      .toBe(threadText);
  });

  it('says so when nothing needs the person', () => {
    render(InboxList, { app: new AppState(fakeApi()), api: fake({ items: [], count: 0 }),
      view: { items: [], count: 0 }, onclose: () => {} });
    expect(screen.getByTestId('inbox-empty')).toHaveTextContent('Nothing needs you');
  });
});
