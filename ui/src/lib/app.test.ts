import { describe, expect, it, vi } from 'vitest';
import { AppState } from './app.svelte';
import { conversation, fakeApi, machine, uiError } from '../tests/fake-api';

describe('AppState', () => {
  it('loads machines, picks an online one and opens a conversation for it', async () => {
    const api = fakeApi({
      listMachines: vi.fn(async () => [
        machine({ machineId: 'asleep', availability: 'asleep', name: 'A' }),
        machine({ machineId: 'up', name: 'B' }),
      ]),
      newConversation: vi.fn(async (machineId: string) => conversation({ machineId })),
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
    expect(api.newConversation).toHaveBeenCalledWith('up');
    expect(api.watchConversation).toHaveBeenCalledWith('c1', expect.any(Function));
    expect(state.models.map((m) => m.id)).toEqual(['auto']);
    expect(state.isDemo).toBe(true);
  });

  it('reopens the latest conversation of a machine instead of starting a new one', async () => {
    const api = fakeApi({
      listConversations: vi.fn(async () => [
        { id: 'c9', machineId: 'm1', title: 'Old', updatedAt: 5, status: 'running' as const },
      ]),
    });
    const state = new AppState(api);
    await state.start();
    expect(api.watchConversation).toHaveBeenCalledWith('c9', expect.any(Function));
    expect(api.newConversation).not.toHaveBeenCalled();
  });

  it('shows each saved file set aside at start until the person dismisses it', async () => {
    const library = uiError({ code: 'stored_data_set_aside', title: 'Your reusable tasks could not be read', detail: 'moved to /d/library.unreadable-1.json', action: null });
    const settings = uiError({ code: 'stored_data_set_aside', title: 'Your settings could not be read', detail: 'moved to /d/settings.unreadable-1.json', action: null });
    const state = new AppState(fakeApi({ storedDataNotices: vi.fn(async () => [library, settings]) }));
    await state.start();
    expect(state.storedDataNotices).toEqual([library, settings]);
    state.dismissStoredDataNotice(library);
    expect(state.storedDataNotices).toEqual([settings]);
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
