// A stand-in for the Tauri API in component tests: every call is a spy with a plain answer.
import { vi } from 'vitest';
import type { Api, Conversation, MachineRow, UiError } from '../lib/api';

export function machine(over: Partial<MachineRow> = {}): MachineRow {
  return {
    machineId: 'm1',
    name: 'Design laptop',
    cloud: true, kindKnown: true,
    availability: 'online',
    canWake: false,
    freeComputer: false,
    updatedAt: Date.now() - 120_000,
    startingSince: null,
    ...over,
  };
}

export function conversation(over: Partial<Conversation> = {}): Conversation {
  return {
    id: 'c1',
    scope: 'demo',
    machineId: 'm1',
    title: '',
    createdAt: 1,
    updatedAt: 1,
    sessionId: null,
    model: null,
    status: 'idle',
    items: [],
    pendingApproval: null,
    usage: null,
    failure: null,
    follower: null,
    waiting: [],
    unsent: null,
    reconnecting: false,
    stopping: false,
    ...over,
  };
}

export function uiError(over: Partial<UiError> = {}): UiError {
  return { code: 'unauthorized', title: 'Your key was not accepted', detail: 'Connect again.', retryAt: null, action: 'signIn', ...over };
}

export function fakeApi(over: Partial<Api> = {}): Api {
  const unlisten = () => {};
  const api: Api = {
    connectionInfo: vi.fn(async () => ({
      mode: 'demo' as const, state: 'ready' as const, baseUrl: null, userId: 'u1', hasSavedAccount: false, error: null,
    })),
    connectAccount: vi.fn(),
    useDemo: vi.fn(),
    resetDemo: vi.fn(),
    useAccount: vi.fn(),
    signOut: vi.fn(),
    listMachines: vi.fn(async () => [machine()]),
    wakeMachine: vi.fn(async () => null),
    getAccount: vi.fn(async () => ({
      userId: 'u1', userState: 'active', plan: { id: 'pro', title: 'Pro', free: false, unlimited: false },
      credits: { usd: 25 }, authType: 'apiKey',
    })),
    listModels: vi.fn(async () => ({ models: [], default: 'auto' })),
    listConversations: vi.fn(async () => []),
    currentConversation: vi.fn(async () => conversation()),
    newConversation: vi.fn(async () => conversation()),
    deleteConversation: vi.fn(async () => conversation()),
    watchConversation: vi.fn(async (_id: string, cb: (c: Conversation) => void) => {
      cb(conversation());
      return null;
    }),
    unwatchConversation: vi.fn(async () => null),
    sendMessage: vi.fn(async () => null),
    runNext: vi.fn(async () => null),
    retrySend: vi.fn(async () => null),
    removeWaiting: vi.fn(async () => null),
    catchUpConversation: vi.fn(async () => null),
    stopTask: vi.fn(async () => null),
    answerStuck: vi.fn(async () => null),
    answerApproval: vi.fn(async () => null),
    chooseApproval: vi.fn(async () => null),
    openApprovalPage: vi.fn(async () => null),
    onMachinesChanged: vi.fn(async () => unlisten),
    onConnectionChanged: vi.fn(async () => unlisten),
    onConversationsChanged: vi.fn(async () => unlisten),
    onFocusConversation: vi.fn(async () => unlisten),
    onFileDrop: vi.fn(async () => unlisten),
    pickFiles: vi.fn(async () => []),
    uploadFile: vi.fn(async (token: string) => ({ path: `uploads/${token}`, name: token, mime: 'text/plain', size: 1, fileId: `f_${token}` })),
    storedDataNotices: vi.fn(async () => []),
    showStoredDataFile: vi.fn(async () => null),
    defaultCap: vi.fn(async () => null),
    setDefaultCap: vi.fn(async (cap: number | null) => cap),
    capOfferPending: vi.fn(async () => false),
    answerCapOffer: vi.fn(async (cap: number | null) => cap),
    modelCosts: vi.fn(async () => []),
    raiseCap: vi.fn(async () => null),
    keepCap: vi.fn(async () => null),
    searchHistory: vi.fn(async () => []),
    ...over,
  } as unknown as Api;
  return api;
}
