import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Composer from './Composer.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, machine } from '../../tests/fake-api';
import type { Api, Conversation } from '../api';

async function setup() {
  const api = fakeApi();
  const state = new AppState(api);
  state.conversation = conversation();
  render(Composer, { app: state, machine: machine() });
  return { api, box: screen.getByTestId('composer') as HTMLTextAreaElement };
}

describe('Composer', () => {
  it('sends on Enter and clears the box', async () => {
    const { api, box } = await setup();
    await userEvent.type(box, 'Find the weather{Enter}');
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalledWith({
        conversationId: 'c1',
        text: 'Find the weather',
        model: null,
        attachments: [],
        // "Record steps" is on unless turned off.
        options: { recordSteps: true, outputSchema: '', successCriteria: null },
        capUsd: null,
      }),
    );
    expect(box.value).toBe('');
  });

  it('gives the keyboard back to the box after Send pressed from the keyboard', async () => {
    const { api, box } = await setup();
    await userEvent.type(box, 'Find the weather');
    const send = screen.getByTestId('send-button');
    send.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalled());
    expect(send).toBeDisabled();
    expect(document.activeElement).toBe(box);
  });

  it('adds a new line on Shift+Enter without sending', async () => {
    const { api, box } = await setup();
    await userEvent.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box.value).toBe('line one\nline two');
    expect(api.sendMessage).not.toHaveBeenCalled();
  });

  it('keeps the text when sending fails', async () => {
    const { ApiError } = await import('../ui-error');
    const api = fakeApi({
      sendMessage: async () => {
        throw new ApiError({ code: 'network', title: 'Can’t reach the service', detail: 'x.', retryAt: null, action: 'retry' });
      },
    });
    const state = new AppState(api);
    state.conversation = conversation();
    render(Composer, { app: state, machine: machine() });
    const box = screen.getByTestId('composer') as HTMLTextAreaElement;
    await userEvent.type(box, 'hello{Enter}');
    await waitFor(() => expect(state.actionError?.code).toBe('network'));
    expect(box.value).toBe('hello');
  });
});

describe('Composer and dropped files', () => {
  it('highlights while files are over it and adds the checks Rust sends as chips, uploading by token', async () => {
    type DropEvent = Parameters<Parameters<Api['onFileDrop']>[0]>[0];
    let drop: (e: DropEvent) => void = () => {};
    const api = fakeApi({
      onFileDrop: vi.fn(async (cb: (e: DropEvent) => void) => {
        drop = cb;
        return () => {};
      }),
    });
    const state = new AppState(api);
    state.conversation = conversation();
    render(Composer, { app: state, machine: machine() });
    await waitFor(() => expect(api.onFileDrop).toHaveBeenCalled());
    const form = screen.getByTestId('composer-form');

    drop({ kind: 'over' });
    await waitFor(() => expect(form.classList.contains('dropping')).toBe(true));
    drop({ kind: 'leave' });
    await waitFor(() => expect(form.classList.contains('dropping')).toBe(false));

    drop({ kind: 'over' });
    drop({ kind: 'drop', checks: [
      { path: 'a1b2', name: 'notes.md', size: 5, recognised: true, refusal: null },
      { path: '', name: 'empty.txt', size: 0, recognised: true, refusal: { code: 'empty_file', title: 'This file is empty', detail: 'There is nothing in this file to send.', retryAt: null, action: null } },
    ] });
    const chips = await screen.findAllByTestId('attachment-chip');
    expect(chips.map((c) => c.dataset.name)).toEqual(['notes.md', 'empty.txt']);
    expect(form.classList.contains('dropping')).toBe(false);
    await waitFor(() => expect(chips[0].dataset.state).toBe('ready'));
    expect(chips[1].dataset.state).toBe('refused');
    // Only the accepted file is uploaded, and by the token Rust gave it.
    expect(api.uploadFile).toHaveBeenCalledTimes(1);
    expect(api.uploadFile).toHaveBeenCalledWith('a1b2', expect.any(Function));
  });
});

describe('Composer in a finished conversation', () => {
  it('offers to ask in a new conversation instead of sending, carrying the words and the task over', async () => {
    const api = fakeApi({
      watchConversation: vi.fn(async (id: string, cb: (c: Conversation) => void) => {
        cb(conversation({ id }));
        return null;
      }),
      newConversation: vi.fn(async () => conversation({ id: 'new' })),
      listConversations: vi.fn(async () => [
        { id: 'new', machineId: 'm1', title: '', updatedAt: 3, status: 'idle' as const, current: true },
      ]),
    });
    const state = new AppState(api);
    state.conversations = [
      { id: 'now', machineId: 'm1', title: 'Now', updatedAt: 2, status: 'idle', current: true },
      { id: 'c1', machineId: 'm1', title: 'Before', updatedAt: 1, status: 'succeeded', current: false },
    ];
    state.selectedMachineId = 'm1';
    state.conversation = conversation({ id: 'c1', status: 'succeeded', title: 'Find the weather in Lisbon' });
    render(Composer, { app: state, machine: machine() });
    expect(screen.getByTestId('conversation-finished').textContent).toContain('This conversation is finished');
    expect(screen.queryByTestId('send-button')).toBeNull();
    expect(screen.getByTestId('ask-in-new').textContent).toContain('Ask this in a new conversation');
    const box = screen.getByTestId('composer') as HTMLTextAreaElement;
    await userEvent.type(box, 'And tomorrow?{Enter}');
    await waitFor(() => expect(state.conversation?.id).toBe('new'));
    expect(api.newConversation).toHaveBeenCalledWith('m1');
    expect(api.sendMessage).not.toHaveBeenCalled();
    // The words wait in the new conversation's box, the earlier task named above them.
    expect(box.value).toBe('About my earlier task “Find the weather in Lisbon”:\nAnd tomorrow?');
    expect(screen.queryByTestId('ask-in-new')).toBeNull();
    expect(screen.getByTestId('send-button').textContent).toContain('Send');
  });
});

describe('Composer while a task runs', () => {
  it('offers to add to this task (Enter) or to run next, each its own call', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation({ status: 'running' });
    render(Composer, { app: state, machine: machine() });
    const box = screen.getByTestId('composer') as HTMLTextAreaElement;
    expect(screen.getByTestId('send-button').textContent).toContain('Add to this task');

    await userEvent.type(box, 'Find the weather in Oslo');
    await userEvent.click(screen.getByTestId('run-next-button'));
    await waitFor(() => expect(api.runNext).toHaveBeenCalledWith(
      expect.objectContaining({ conversationId: 'c1', text: 'Find the weather in Oslo' }),
    ));
    expect(api.sendMessage).not.toHaveBeenCalled();
    await waitFor(() => expect(box.value).toBe(''));

    await userEvent.type(box, 'Use Celsius{Enter}');
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalledWith(
      expect.objectContaining({ text: 'Use Celsius' }),
    ));
    expect(api.runNext).toHaveBeenCalledTimes(1);
  });

  it('offers Run next only while a task runs', () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation({ status: 'succeeded' });
    render(Composer, { app: state, machine: machine() });
    expect(screen.queryByTestId('run-next-button')).toBeNull();
  });
});

describe('Composer’s one row', () => {
  it('keeps the secondary controls under "More options", reachable by keyboard, and Escape folds them', async () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation();
    render(Composer, { app: state, machine: machine() });
    // Folded: attach, ⋯, Schedule… and Send in one row; nothing else.
    expect(screen.queryByTestId('record-steps')).toBeNull();
    expect(screen.queryByTestId('model-picker')).toBeNull();
    expect(screen.queryByTestId('cap-input')).toBeNull();
    expect(screen.getByTestId('schedule-button')).toBeInTheDocument();
    const more = screen.getByTestId('composer-more');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(more).toHaveAccessibleName('More options');

    more.focus();
    await userEvent.keyboard('{Enter}');
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('record-steps')).toBeChecked();
    expect(screen.getByTestId('cap-input')).toBeInTheDocument();
    // Tab reaches them from ⋯ (after the row's own buttons).
    const reached: (string | null)[] = [];
    for (let i = 0; i < 6; i++) {
      await userEvent.tab();
      reached.push(document.activeElement?.getAttribute('data-testid') ?? null);
    }
    expect(reached).toContain('record-steps');
    expect(reached).toContain('cap-input');

    // Turning recording off marks ⋯, so a folded change is not forgotten.
    await userEvent.click(screen.getByTestId('record-steps'));
    expect(more).toHaveAccessibleName('More options (some changed)');
    await userEvent.click(screen.getByTestId('record-steps'));

    screen.getByTestId('cap-input').focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('composer-more-panel')).toBeNull();
    expect(more).toHaveFocus();
  });

  it('while a task runs: Run next beside "Add to this task", and Schedule… under ⋯', async () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation({ status: 'running' });
    render(Composer, { app: state, machine: machine() });
    expect(screen.getByTestId('run-next-button')).toBeInTheDocument();
    expect(screen.queryByTestId('schedule-button')).toBeNull();
    await userEvent.click(screen.getByTestId('composer-more'));
    expect(screen.getByTestId('schedule-button')).toBeInTheDocument();
  });

  it('keeps the AI model under ⋯, and marks ⋯ when it is not the automatic one', async () => {
    const state = new AppState(fakeApi());
    state.conversation = conversation();
    state.models = [
      { id: 'auto', name: 'Automatic', tier: 'balanced', costTier: '$', allowed: true },
      { id: 'v/big', name: 'Big', tier: 'reasoning', costTier: '$$$', allowed: true },
    ];
    render(Composer, { app: state, machine: machine() });
    expect(screen.queryByTestId('model-picker')).toBeNull();
    await userEvent.click(screen.getByTestId('composer-more'));
    await userEvent.selectOptions(screen.getByLabelText('AI model'), 'v/big');
    expect(state.chosenModel).toBe('v/big');
    expect(screen.getByTestId('composer-more')).toHaveAccessibleName('More options (some changed)');
  });
});
