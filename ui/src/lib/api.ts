// The only module that talks to Tauri. Components and stores call these typed functions;
// every failure arrives as an ApiError carrying a UiError (words chosen in Rust, by code).
import { Channel } from '@tauri-apps/api/core';
import { commands, events } from './bindings';
import { ApiError, unexpectedError } from './ui-error';
import type {
  Account,
  ConnectionInfo,
  Conversation,
  ConversationSummary,
  MachineRow,
  ModelList,
  UiError,
} from './bindings';

export type {
  Account,
  ApprovalRequest,
  Availability,
  ConnectionInfo,
  Conversation,
  ConversationSummary,
  MachineRow,
  Model,
  ModelList,
  TaskStatus,
  TaskUsage,
  ThreadItem,
  UiAction,
  UiError,
} from './bindings';

const unexpected = unexpectedError;

type Result<T> = { status: 'ok'; data: T } | { status: 'error'; error: UiError };

async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch {
    throw new ApiError(unexpected());
  }
  if (result.status === 'ok') return result.data;
  throw new ApiError(result.error ?? unexpected());
}

export const api = {
  connectionInfo: (): Promise<ConnectionInfo> => commands.connectionInfo(),
  connectAccount: (baseUrl: string, apiKey: string) => unwrap(commands.connectAccount(baseUrl, apiKey)),
  useDemo: () => unwrap(commands.useDemo()),
  useAccount: () => unwrap(commands.useAccount()),
  signOut: () => unwrap(commands.signOut()),
  listMachines: (): Promise<MachineRow[]> => unwrap(commands.listMachines()),
  wakeMachine: (machineId: string) => unwrap(commands.wakeMachine(machineId)),
  getAccount: (): Promise<Account> => unwrap(commands.getAccount()),
  listModels: (): Promise<ModelList> => unwrap(commands.listModels()),
  listConversations: (machineId: string): Promise<ConversationSummary[]> =>
    unwrap(commands.listConversations(machineId)),
  newConversation: (machineId: string): Promise<Conversation> =>
    unwrap(commands.newConversation(machineId)),
  watchConversation: (conversationId: string, onChange: (c: Conversation) => void) => {
    const channel = new Channel<Conversation>();
    channel.onmessage = onChange;
    return unwrap(commands.watchConversation(conversationId, channel));
  },
  unwatchConversation: (conversationId: string) => commands.unwatchConversation(conversationId),
  sendMessage: (conversationId: string, text: string, model: string | null) =>
    unwrap(commands.sendMessage(conversationId, text, model)),
  stopTask: (conversationId: string) => unwrap(commands.stopTask(conversationId)),
  answerApproval: (conversationId: string, approve: boolean) =>
    unwrap(commands.answerApproval(conversationId, approve)),
  openApprovalPage: (conversationId: string) => unwrap(commands.openApprovalPage(conversationId)),

  onMachinesChanged: (cb: () => void) => events.machinesChanged.listen(() => cb()),
  onConnectionChanged: (cb: () => void) => events.connectionChanged.listen(() => cb()),
  onConversationsChanged: (cb: (machineId: string) => void) =>
    events.conversationsChanged.listen((e) => cb(e.payload.machineId)),
  onFocusConversation: (cb: (machineId: string, conversationId: string) => void) =>
    events.focusConversation.listen((e) => cb(e.payload.machineId, e.payload.conversationId)),
};

export type Api = typeof api;
