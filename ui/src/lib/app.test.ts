import { describe, expect, it, vi } from 'vitest';
import { AppState } from './app.svelte';
import { conversation, fakeApi, machine, uiError } from '../tests/fake-api';
import type { Conversation } from './api';
import { ApiError, Code } from './ui-error';

describe('AppState', () => {
  it('loads machines, picks an online one and opens a conversation for it', async () => {
    const api = fakeApi({
      listMachines: vi.fn(async () => [
        machine({ machineId: 'asleep', availability: 'asleep', name: 'A' }),
        machine({ machineId: 'up', name: 'B' }),
      ]),
      currentConversation: vi.fn(async (machineId: string) => conversation({ machineId })),
      listModels: vi.fn(async () => ({
        default: 'auto',
        models: [
          { id: 'auto', name: 'Auto', provider: 'x', tier: 'balanced', costTier: '$', allowed: true },
          { id: 'v/big', name: 'Big', provider: 'x', tier: 'reasoning', costTier: '$$$', allowed: false },
        ],
      })),
    });
    const state = new AppState(api);
    await state.start();
    expect(state.machines).toHaveLength(2);
    expect(state.selectedMachineId).toBe('up');
    expect(api.currentConversation).toHaveBeenCalledWith('up');
    expect(api.newConversation).not.toHaveBeenCalled();
    expect(api.watchConversation).toHaveBeenCalledWith('c1', expect.any(Function));
    expect(state.models.map((m) => m.id)).toEqual(['auto']);
    expect(state.isDemo).toBe(true);
  });

  it('has the first screen ready once the machine list is read, before a conversation is opened', async () => {
    const api = fakeApi({
      listMachines: vi.fn(async () => [machine({ machineId: 'up', name: 'B' })]),
      currentConversation: vi.fn(() => new Promise<Conversation>(() => {})),
    });
    const state = new AppState(api);
    void state.start();
    await state.firstScreen;
    expect(state.machinesLoaded).toBe(true);
    expect(state.machines.map((m) => m.machineId)).toEqual(['up']);
    expect(state.conversation).toBeNull();
  });

  it('has the first screen ready at once while the connection is not ready, without a list', async () => {
    const api = fakeApi({
      connectionInfo: vi.fn(async () => ({
        mode: 'account' as const,
        state: 'connecting' as const,
        baseUrl: 'https://example.test',
        userId: null,
        hasSavedAccount: true,
        error: null,
      })),
    });
    const state = new AppState(api);
    await state.start();
    await state.firstScreen;
    expect(api.listMachines).not.toHaveBeenCalled();
    expect(state.machinesLoaded).toBe(false);
  });

  it('has the first screen ready with the reason when the machine list cannot be read', async () => {
    const api = fakeApi({ listMachines: vi.fn(async () => Promise.reject(new ApiError(uiError({ code: 'network' })))) });
    const state = new AppState(api);
    void state.start();
    await state.firstScreen;
    expect(state.machinesError?.code).toBe(Code.network);
  });

  it('opens the current conversation of a machine and catches it up, without a new one', async () => {
    const rows = [
      { id: 'c9', machineId: 'm1', title: 'Now', updatedAt: 5, status: 'running' as const, current: true },
      { id: 'c3', machineId: 'm1', title: 'Before', updatedAt: 9, status: 'succeeded' as const, current: false },
    ];
    const api = fakeApi({
      currentConversation: vi.fn(async () => conversation({ id: 'c9' })),
      listConversations: vi.fn(async () => rows),
      watchConversation: vi.fn(async (id: string, cb: (c: Conversation) => void) => {
        cb(conversation({ id }));
        return null;
      }),
    });
    const state = new AppState(api);
    await state.start();
    expect(api.watchConversation).toHaveBeenCalledWith('c9', expect.any(Function));
    expect(api.catchUpConversation).toHaveBeenCalledWith('c9');
    expect(api.newConversation).not.toHaveBeenCalled();
    expect(state.conversationFinished).toBe(false);

    // An earlier one is read, never caught up with the current session, and is finished.
    await state.openConversation('c3');
    expect(state.conversationFinished).toBe(true);
    await state.catchUp();
    expect(api.catchUpConversation).toHaveBeenCalledTimes(1);
  });

  it('shows each saved file set aside at start until the person dismisses it, each in its place', async () => {
    const library = uiError({ code: 'stored_data_set_aside', title: 'Your saved tasks could not be read', detail: 'Porthole started without it.', action: 'showFile' });
    const settings = uiError({ code: 'stored_data_set_aside', title: 'Your settings could not be read', detail: 'Porthole started without it.', action: 'showFile' });
    const state = new AppState(fakeApi({ storedDataNotices: vi.fn(async () => [library, settings]) }));
    await state.start();
    expect(state.storedDataNotices).toEqual([library, settings]);
    // The same words for two files: the one dismissed goes, and the other keeps its index,
    // which names its file to "Show the file".
    state.dismissStoredDataNotice(0);
    expect(state.storedDataNotices).toEqual([null, settings]);
  });

  it('reads the balance again when the task it watches ends, not on every update', async () => {
    let update: (c: Conversation) => void = () => {};
    const api = fakeApi({
      watchConversation: vi.fn(async (_id: string, cb: (c: Conversation) => void) => {
        update = cb;
        cb(conversation({ status: 'running' }));
        return null;
      }),
    });
    const state = new AppState(api);
    await state.start();
    const reads = vi.mocked(api.getAccount).mock.calls.length;
    update(conversation({ status: 'needsApproval' }));
    update(conversation({ status: 'running' }));
    expect(api.getAccount).toHaveBeenCalledTimes(reads);
    update(conversation({ status: 'succeeded' }));
    expect(api.getAccount).toHaveBeenCalledTimes(reads + 1);
    update(conversation({ status: 'succeeded' }));
    expect(api.getAccount).toHaveBeenCalledTimes(reads + 1);
  });

  it('sends the chosen model only when it is not the default', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation();
    state.chosenModel = 'v/fast';
    await state.send('  hello  ');
    expect(api.sendMessage).toHaveBeenCalledWith(expect.objectContaining({ conversationId: 'c1', text: 'hello', model: 'v/fast' }));
  });
});
