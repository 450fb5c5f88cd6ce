// The only module that talks to Tauri. Components and stores call these typed functions;
// every failure arrives as an ApiError carrying a UiError (words chosen in Rust, by code).
import { Channel } from '@tauri-apps/api/core';
import { connectFrames, type FrameSocket } from './live/socket';
import { getCurrentWebview } from '@tauri-apps/api/webview';
import { commands, events } from './bindings';
import type { InboxView, SavedReport } from './bindings';
import { ApiError, Code, unexpectedError, wordsFor } from './ui-error';
import type {
  Account,
  ConnectionInfo,
  Conversation,
  ConversationSummary,
  MachineRow,
  ModelList,
  UiError,
  CreationProgress,
  FileCheck,
  IdentityInfo,
  KeysView,
  NewKey,
  Upload,
  UploadProgress,
  UsageView,
  Recording,
  SendRequest,
  SearchHit,
  StuckAnswer,
  TurnOutcome,
  Criteria,
  Judgement,
  ReusableDraft,
  ReusableTask,
  BlockRun,
  ExecResult,
  ConsoleState,
  BrowserSignIn,
  Check,
  Receipt,
} from './bindings';

export type { StuckAnswer, StuckSignal } from './bindings';
export type { Check, Judged, Receipt, ReceiptOutcome, Touched, Why } from './bindings';
export type { ModelCost, RunEstimate } from './bindings';
export type {
  Account,
  ApprovalKind,
  ApprovalRequest,
  CapQuestion,
  CardReading,
  Deletion,
  NamedPlace,
  Place,
  Availability,
  ConnectionInfo,
  Conversation,
  ConversationSummary,
  MachineRow,
  Model,
  ModelList,
  SearchHit,
  SendRequest,
  Speaker,
  TaskStatus,
  TaskUsage,
  ThreadItem,
  Problem,
  UiAction,
  UiCode,
  UiError,
  Waiting,
} from './bindings';

const unexpected = unexpectedError;

export type {
  BrowserSignIn,
  CreationProgress,
  FileCheck,
  IdentityInfo,
  KeyRecord,
  KeysView,
  NewKey,
  Upload,
  UploadProgress,
  UsageFigures,
  UsageView,
} from './bindings';

export type {
  BlockRun,
  ConsoleState,
  Criteria,
  CriterionCheck,
  CriterionVerdict,
  ExecResult,
  Judgement,
  Parameter,
  Recording,
  ReusableDraft,
  ReusableTask,
  SendOptions,
  Step,
  TurnOutcome,
} from './bindings';

/** Raw image bytes from a command (an ArrayBuffer) as a blob URL; revoke it when done. */
function imageUrl(bytes: unknown): string {
  const buffer = bytes instanceof ArrayBuffer ? bytes : new Uint8Array(bytes as number[]).buffer;
  return URL.createObjectURL(new Blob([buffer], { type: 'image/jpeg' }));
}

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
  connectAccount: (baseUrl: string, apiKey: string, versionTag: string | null = null) =>
    unwrap(commands.connectAccount(baseUrl, apiKey, versionTag)),
  useDemo: () => unwrap(commands.useDemo()),
  /** Starts the Demo fresh: new practice computers, its conversations removed. */
  resetDemo: () => unwrap(commands.resetDemo()),
  useAccount: () => unwrap(commands.useAccount()),
  signOut: () => unwrap(commands.signOut()),
  listMachines: (): Promise<MachineRow[]> => unwrap(commands.listMachines()),
  wakeMachine: (machineId: string) => unwrap(commands.wakeMachine(machineId)),
  getAccount: (): Promise<Account> => unwrap(commands.getAccount()),
  listModels: (): Promise<ModelList> => unwrap(commands.listModels()),
  listConversations: (machineId: string): Promise<ConversationSummary[]> =>
    unwrap(commands.listConversations(machineId)),
  /** The computer's current conversation, made when it has none; nothing asked of the service. */
  currentConversation: (machineId: string): Promise<Conversation> =>
    unwrap(commands.currentConversation(machineId)),
  /** A fresh conversation on the service, only when the person asks for one. */
  newConversation: (machineId: string): Promise<Conversation> =>
    unwrap(commands.newConversation(machineId)),
  deleteConversation: (conversationId: string): Promise<Conversation> =>
    unwrap(commands.deleteConversation(conversationId)),
  watchConversation: (conversationId: string, onChange: (c: Conversation) => void) => {
    const channel = new Channel<Conversation>();
    channel.onmessage = onChange;
    return unwrap(commands.watchConversation(conversationId, channel));
  },
  unwatchConversation: (conversationId: string) => commands.unwatchConversation(conversationId),
  /** One message with everything that goes out with it: model, files, the composer's options. */
  sendMessage: (request: SendRequest) => unwrap(commands.sendMessage(request)),
  /** The spending cap a new task starts with, from the settings; `null` for none. */
  defaultCap: (): Promise<number | null> => commands.defaultCap(),
  setDefaultCap: (capUsd: number | null): Promise<number | null> => unwrap(commands.setDefaultCap(capUsd)),
  /** Whether to offer a cap for every task: once, on first use. */
  capOfferPending: (): Promise<boolean> => commands.capOfferPending(),
  /** The answer to that offer (`null`: no, thanks); answers the default cap as kept. */
  answerCapOffer: (capUsd: number | null): Promise<number | null> => unwrap(commands.answerCapOffer(capUsd)),
  /** Each model's typical cost over the person's own ended tasks. */
  modelCosts: (defaultModel: string): Promise<import('./bindings').ModelCost[]> => commands.modelCosts(defaultModel),
  /** Answers the question a task asks near its cap: raise this task's cap, or keep it. */
  raiseCap: (conversationId: string) => unwrap(commands.raiseCap(conversationId)),
  keepCap: (conversationId: string) => unwrap(commands.keepCap(conversationId)),
  /** Lines of every conversation of the active service matching what was typed, best first. */
  searchHistory: (typed: string): Promise<SearchHit[]> => unwrap(commands.searchHistory(typed)),
  /** Held until the running task ends, then started as a task of its own. */
  runNext: (request: SendRequest) => unwrap(commands.runNext(request)),
  retrySend: (conversationId: string) => unwrap(commands.retrySend(conversationId)),
  removeWaiting: (conversationId: string, waitingId: string) =>
    unwrap(commands.removeWaiting(conversationId, waitingId)),
  /** Adds what was said on the service elsewhere (another copy of Porthole) to the thread. */
  catchUpConversation: (conversationId: string) => unwrap(commands.catchUpConversation(conversationId)),
  stopTask: (conversationId: string) => unwrap(commands.stopTask(conversationId)),
  /** Answers the "it seems stuck" card: a hint into the running task, or let it keep going. */
  answerStuck: (conversationId: string, answer: StuckAnswer) =>
    unwrap(commands.answerStuck(conversationId, answer)),
  /** Each answer names the card it was given on, so a late click never answers a newer card. */
  answerApproval: (conversationId: string, approvalId: string, approve: boolean) =>
    unwrap(commands.answerApproval(conversationId, approvalId, approve)),
  chooseApproval: (conversationId: string, approvalId: string, selections: string[][]) =>
    unwrap(commands.chooseApproval(conversationId, approvalId, selections)),
  openApprovalPage: (conversationId: string, approvalId: string) =>
    unwrap(commands.openApprovalPage(conversationId, approvalId)),

  // Replay, reusable tasks, checks, console.
  latestTurn: (conversationId: string): Promise<string | null> => commands.latestTurn(conversationId),
  getRecording: (turnId: string): Promise<Recording> => unwrap(commands.getRecording(turnId)),
  stepScreenshot: async (turnId: string, index: number): Promise<string> =>
    imageUrl(await unwrap(commands.stepScreenshot(turnId, index))),
  getTurnOutcome: (turnId: string): Promise<TurnOutcome> => unwrap(commands.getTurnOutcome(turnId)),
  checkResult: (turnId: string, criteria: Criteria, idempotencyKey: string): Promise<Judgement> =>
    unwrap(commands.checkResult(turnId, criteria, idempotencyKey)),
  draftReusable: (conversationId: string): Promise<ReusableDraft> =>
    unwrap(commands.draftReusable(conversationId)),
  learnReusable: (turnId: string, template: string, idempotencyKey: string): Promise<ReusableTask> =>
    unwrap(commands.learnReusable(turnId, template, idempotencyKey)),
  listReusable: (): Promise<ReusableTask[]> => unwrap(commands.listReusable()),
  removeReusable: (id: string) => unwrap(commands.removeReusable(id)),
  runReusable: (id: string, machineId: string, inputs: Record<string, unknown>): Promise<BlockRun> =>
    unwrap(commands.runReusable(id, machineId, inputs)),
  reportWrongResult: (id: string, inputs: Record<string, unknown>, result: ExecResult, note: string): Promise<ReusableTask> =>
    unwrap(commands.reportWrongResult(id, inputs, result, note)),
  healReusable: (id: string, feedback: string, idempotencyKey: string): Promise<ReusableTask> =>
    unwrap(commands.healReusable(id, feedback, idempotencyKey)),
  consoleState: (machineId: string): Promise<ConsoleState> => unwrap(commands.consoleState(machineId)),
  consoleOpen: (machineId: string): Promise<ConsoleState> => unwrap(commands.consoleOpen(machineId)),
  consoleRun: (machineId: string, code: string): Promise<BlockRun> => unwrap(commands.consoleRun(machineId, code)),
  consoleInterrupt: (machineId: string): Promise<boolean> => unwrap(commands.consoleInterrupt(machineId)),
  consoleClose: (machineId: string): Promise<ConsoleState> => unwrap(commands.consoleClose(machineId)),
  consoleScreenshot: async (machineId: string): Promise<string> =>
    imageUrl(await unwrap(commands.consoleScreenshot(machineId))),
  leaseEndings: (): Promise<UiError[]> => commands.leaseEndings(),

  // Sign-in, keys, new computers, attachments, usage.
  identityInfo: (): Promise<IdentityInfo | null> => unwrap(commands.identityInfo()),
  /** Whether "Sign in with Google" can work at this address, or why not: this copy was built
   *  without it, or the address was typed by hand (the Demo always can). */
  browserSignInReady: (baseUrl: string): Promise<BrowserSignIn> => commands.browserSignInReady(baseUrl),
  /** Opens the service's web portal, where API keys are made, in the system browser. */
  openKeyPortal: () => unwrap(commands.openKeyPortal()),
  signInWithBrowser: (baseUrl: string): Promise<IdentityInfo> => unwrap(commands.signInWithBrowser(baseUrl)),
  /** Stops a browser sign-in that is waiting; true when one was. */
  cancelSignIn: (): Promise<boolean> => commands.cancelSignIn(),
  signInWithToken: (baseUrl: string, token: string): Promise<IdentityInfo> =>
    unwrap(commands.signInWithToken(baseUrl, token)),
  /** After signing in: Porthole moves to that account (a key of its own, kept in the
   *  keychain); false when it was on that account already. */
  connectSignedIn: (): Promise<boolean> => unwrap(commands.connectSignedIn()),
  /** Where signing in goes unless the person changes it; null when nothing is known. */
  signInAddress: (): Promise<string | null> => commands.signInAddress(),
  forgetSignIn: () => unwrap(commands.forgetSignIn()),
  listKeys: (): Promise<KeysView> => unwrap(commands.listKeys()),
  /** The answer holds the new key's secret: show it once, keep it nowhere. */
  createKey: (name: string | null): Promise<NewKey> => unwrap(commands.createKey(name)),
  useNewKey: (keyId: string) => unwrap(commands.useNewKey(keyId)),
  closeNewKey: () => commands.closeNewKey(),
  revokeKey: (keyId: string) => unwrap(commands.revokeKey(keyId)),
  createComputer: (name: string | null, onProgress: (p: CreationProgress) => void): Promise<string> => {
    const channel = new Channel<CreationProgress>();
    channel.onmessage = onProgress;
    return unwrap(commands.createComputer(name, channel));
  },
  pickFiles: (): Promise<FileCheck[]> => unwrap(commands.pickFiles()),
  uploadFile: (path: string, onProgress: (p: UploadProgress) => void): Promise<Upload> => {
    const channel = new Channel<UploadProgress>();
    channel.onmessage = onProgress;
    return unwrap(commands.uploadFile(path, channel));
  },
  /** The receipts of the conversation's finished tasks; the last one's outcome is the service's
   * check of it when the person ran one (kept with the conversation: `keepCheck`). */
  conversationReceipts: (conversationId: string): Promise<Receipt[]> =>
    unwrap(commands.conversationReceipts(conversationId)),
  /** Keeps the check the person ran of task `turnId` with its conversation, for its receipt;
   * `null`: the service could not tell. */
  keepCheck: (conversationId: string, turnId: string, check: Check | null): Promise<null> =>
    unwrap(commands.keepCheck(conversationId, turnId, check)),
  conversationUsage: (conversationId: string): Promise<UsageView> =>
    unwrap(commands.conversationUsage(conversationId)),
  /** Saved files that could not be read at start: each one set aside, in words. */
  storedDataNotices: (): Promise<UiError[]> => commands.storedDataNotices(),
  /** "Show the file" of the `index`-th of those notices, in the file manager. */
  showStoredDataFile: (index: number) => unwrap(commands.showStoredDataFile(index)),
  /**
   * Files dropped on the window: `over` while dragging (Tauri's drag events, for the highlight),
   * then the files as Rust checked them, with tokens (`FilesDropped`): the page never holds a
   * dropped file's path.
   */
  onFileDrop: async (
    cb: (e: { kind: 'over' | 'leave' } | { kind: 'drop'; checks: FileCheck[] }) => void,
  ): Promise<() => void> => {
    const stops = await Promise.all([
      getCurrentWebview().onDragDropEvent((event) => {
        const type = event.payload.type;
        if (type === 'drop' || type === 'leave') cb({ kind: 'leave' });
        else cb({ kind: 'over' });
      }),
      events.filesDropped.listen((e) => cb({ kind: 'drop', checks: e.payload.checks })),
    ]);
    return () => stops.forEach((stop) => stop());
  },

  onMachinesChanged: (cb: () => void) => events.machinesChanged.listen(() => cb()),
  // Updates: what is on offer (already verified in Rust), install it, put it off.
  updateStatus: () => commands.updateStatus(),
  installUpdate: () => commands.installUpdate(),
  dismissUpdate: () => commands.dismissUpdate(),
  onUpdateStatusChanged: (cb: () => void) => events.updateStatusChanged.listen(() => cb()),
  onConnectionChanged: (cb: () => void) => events.connectionChanged.listen(() => cb()),
  onConversationsChanged: (cb: (machineId: string) => void) =>
    events.conversationsChanged.listen((e) => cb(e.payload.machineId)),
  onFocusConversation: (cb: (machineId: string, conversationId: string) => void) =>
    events.focusConversation.listen((e) => cb(e.payload.machineId, e.payload.conversationId)),
};

export type Api = typeof api;

// What needs the person on every computer (features/inbox), and a finished task shared as a
// report (features/report): the page never names a path, Rust asks the save dialog.
export type {
  InboxItem, InboxKind, InboxView, ReportFilm, ReportPictures, ReportRedactions, ReportWords, SaidReceipt, SavedReport,
  ServiceShot, ServiceSteps, ShareRequest,
} from './bindings';
export const inboxApi = {
  get: (): Promise<InboxView> => commands.getInbox(),
  /** Puts away a failed task or a computer that cannot be woken; cards leave when answered. */
  dismiss: (key: string) => commands.dismissInboxItem(key),
  onChanged: (cb: (count: number) => void) => events.inboxChanged.listen((e) => cb(e.payload.count)),
  /** The tray's "things need you" was clicked. */
  onShow: (cb: () => void) => events.showInbox.listen(() => cb()),
};
export const reportApi = {
  /** What the task cost in dollars, for the page to word; `null` when not reported. Without a
   * turn id, the conversation's last task. */
  cost: (conversationId: string, turnId: string | null): Promise<number | null> =>
    unwrap(commands.reportCost(conversationId, turnId)),
  /** The receipt the report opens with: the conversation's last finished task's, read as the
   * thread reads it (with the service's check the person ran, if any). */
  receipt: async (conversationId: string): Promise<Receipt | null> =>
    (await unwrap(commands.conversationReceipts(conversationId))).at(-1) ?? null,
  /** The pictures the report will carry, for the person to see and redact before it leaves:
   * Porthole's film (and the frames it keeps) or the service's screenshots of the recorded
   * steps; `null` when it carries none. */
  pictures: (conversationId: string, turnId: string | null): Promise<import('./bindings').ReportPictures | null> =>
    unwrap(commands.reportPictures(conversationId, turnId)),
  /** The service's screenshot of step `index` (as the service numbers it), for the sheet. */
  screenshot: async (turnId: string, index: number): Promise<string> =>
    imageUrl(await unwrap(commands.stepScreenshot(turnId, index))),
  /** Asks where, then writes the report with the page's words for its receipt, date and cost,
   * and what the person hid on its pictures; `null` when the person cancelled. Without a turn
   * id, the conversation's last task, its steps from Porthole's film. */
  share: (request: import('./bindings').ShareRequest): Promise<SavedReport | null> =>
    unwrap(commands.shareReport(request)),
  /** Opens the report just written in the system's browser (which prints it to PDF). */
  open: () => commands.openSavedReport(),
  /** Shows the report just written, selected in the file manager. */
  showFile: () => unwrap(commands.showSavedReport()),
};

export type { UpdateStatus } from './bindings';

// The live screen (ui/src/lib/live). Frames arrive as binary messages on a loopback socket to
// the app (live/socket.ts; decoded in live/frame.ts); the service's live URL and its token stay
// in Rust.
export type { LiveStats, LiveStatus } from './bindings';
const frameSockets = new Map<number, FrameSocket>();
export const liveApi = {
  open: async (machineId: string, onFrame: (message: unknown) => void): Promise<number> => {
    const ticket = await unwrap(commands.liveOpen(machineId));
    try {
      frameSockets.set(ticket.viewId, await connectFrames(ticket.socketUrl, onFrame));
    } catch {
      void commands.liveClose(ticket.viewId);
      throw new ApiError(wordsFor(Code.live_page_unconnected));
    }
    return ticket.viewId;
  },
  close: (viewId: number) => {
    frameSockets.get(viewId)?.close();
    frameSockets.delete(viewId);
    return commands.liveClose(viewId);
  },
  /** Frame `seq` is drawn: its `sync` goes upstream and the next frame may come. */
  ack: async (viewId: number, seq: number) => frameSockets.get(viewId)?.ack(seq),
  pause: (viewId: number) => commands.livePause(viewId),
  resume: (viewId: number) => commands.liveResume(viewId),
  stats: (viewId: number) => commands.liveStats(viewId),
  /** Saves a snapshot where the person picks; its file name, `null` when cancelled. */
  saveSnapshot: (pngBase64: string): Promise<string | null> =>
    unwrap(commands.liveSaveSnapshot(pngBase64)),
  /** Shows the snapshot saved last, selected in the file manager. */
  showSnapshot: () => unwrap(commands.liveShowSnapshot()),
  /** The window itself, full screen or back (the live screen fills it meanwhile). */
  setFullScreen: (full: boolean) => unwrap(commands.liveSetFullScreen(full)),
  onStatus: (cb: (viewId: number, status: import('./bindings').LiveStatus) => void) =>
    events.liveStatusChanged.listen((e) => cb(e.payload.viewId, e.payload.status)),
};

export type { WindowLayout } from './bindings';

/** How the person arranged the window (sidebar, splitter, developer tools), kept by Rust. */
export const layoutApi = {
  get: (): Promise<import('./bindings').WindowLayout> => commands.getLayout(),
  set: (layout: import('./bindings').WindowLayout): Promise<import('./bindings').WindowLayout> =>
    unwrap(commands.setLayout(layout)),
};

// The window is shown once the page's first screen is in place (src-tauri navigation/first_show.rs).
export const windowApi = {
  firstScreenReady: (): Promise<void> => commands.firstScreenReady(),
  /** What stopped the app from opening the person's files at start; `null` when nothing did. */
  startProblem: (): Promise<import('./bindings').StartProblem | null> => commands.startProblem(),
  quitAfterStartProblem: (): Promise<void> => commands.quitAfterStartProblem(),
};

export type { Language, LanguageChoice, StartProblem } from './bindings';

/** The language the app speaks: the person's choice in Settings (null: the system's). */
export const languageApi = {
  get: (): Promise<import('./bindings').LanguageChoice> => commands.getLanguage(),
  set: (chosen: import('./bindings').Language | null): Promise<import('./bindings').LanguageChoice> =>
    unwrap(commands.setLanguage(chosen)),
};

// Tasks on a schedule (features/schedules).
export type {
  Digest,
  DigestLine,
  MissedWhy,
  NewSchedule,
  Outcome,
  Repeat,
  Schedule,
  ScheduleList,
  ScheduleRow,
  TimeOfDay,
  TrayTime,
} from './bindings';
export const schedulesApi = {
  list: (): Promise<import('./bindings').ScheduleList> => unwrap(commands.listSchedules()),
  create: (schedule: import('./bindings').NewSchedule): Promise<import('./bindings').Schedule> =>
    unwrap(commands.createSchedule(schedule)),
  /** Another cap for a schedule's runs (`null`: none). */
  setCap: (id: string, capUsd: number | null) => unwrap(commands.setScheduleCap(id, capUsd)),
  /** The person's "every task" cap, which a new schedule starts with. */
  defaultCap: (): Promise<number | null> => commands.defaultCap(),
  /** What a run and a day may cost, from earlier tasks with the same words. */
  estimate: (text: string, repeat: import('./bindings').Repeat | null): Promise<import('./bindings').RunEstimate> =>
    commands.scheduleEstimate(text, repeat),
  remove: (id: string) => unwrap(commands.deleteSchedule(id)),
  pause: (id: string, paused: boolean) => unwrap(commands.pauseSchedule(id, paused)),
  pauseAll: (paused: boolean) => unwrap(commands.pauseAllSchedules(paused)),
  /** A missed run's "Run now" (the limits still apply). */
  runNow: (id: string) => unwrap(commands.runScheduleNow(id)),
  /** Closes the card of the runs that ended while the person was away. */
  dismissDigest: (): Promise<void> => commands.dismissScheduleDigest(),
  /** Whether Porthole starts when the person logs in. */
  autostart: (): Promise<boolean> => unwrap(commands.autostartEnabled()),
  /** Sets starting at login; either answer counts as the one-time question answered. */
  setAutostart: (enabled: boolean) => unwrap(commands.setAutostart(enabled)),
  onChanged: (cb: () => void) => events.schedulesChanged.listen(() => cb()),
  /** When the run the tray's "Next:" line names runs (Unix ms); `null` when none does. */
  trayNextAt: (): Promise<number | null> => commands.trayNextAt(),
  /** When it runs, in the page's words, for that line. */
  setTrayTimes: (language: import('./bindings').Language, now: number, times: import('./bindings').TrayTime[]) =>
    commands.setTrayTimes(language, now, times),
};
export type SchedulesApi = typeof schedulesApi;

// Every task's film, recorded here (features/film). Pictures come as JPEG bytes, by their place
// in the film, never as a file.
export type { Film, FilmFrame, FilmSettings, FilmSummary, HiddenArea, Redactions, Stroke } from './bindings';

export const filmApi = {
  list: (conversationId: string): Promise<import('./bindings').FilmSummary[]> =>
    commands.listFilms(conversationId),
  get: (conversationId: string, filmId: string): Promise<import('./bindings').Film> =>
    unwrap(commands.getFilm(conversationId, filmId)),
  frame: async (conversationId: string, filmId: string, index: number): Promise<string> =>
    imageUrl(await unwrap(commands.filmFrame(conversationId, filmId, index))),
  settings: (): Promise<import('./bindings').FilmSettings> => commands.filmSettings(),
  setSettings: (film: import('./bindings').FilmSettings): Promise<import('./bindings').FilmSettings> =>
    unwrap(commands.setFilmSettings(film)),
  /** What the redaction sheet starts with (a step typing a password: its pictures hidden). */
  redactions: (conversationId: string, filmId: string): Promise<import('./bindings').Redactions> =>
    unwrap(commands.filmRedactions(conversationId, filmId)),
  /** Asks where, then saves the film as a video with `redactions` painted in and, with
   *  `captions`, each picture's caption burnt in: its file name, `null` when the person
   *  cancelled. */
  saveVideo: (conversationId: string, filmId: string, redactions: import('./bindings').Redactions,
    captions: boolean): Promise<string | null> =>
    unwrap(commands.saveFilmVideo(conversationId, filmId, redactions, captions)),
  showVideo: (): Promise<null> => unwrap(commands.showSavedVideo()),
};
export type FilmApi = typeof filmApi;
