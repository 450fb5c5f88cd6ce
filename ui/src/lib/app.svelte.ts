// The page's state: what the sidebar, the task panel and the dialogs show. One instance,
// created with the API it talks to (tests pass a fake one).
import { toUiError } from './ui-error';
import { computerStatus, type Computers, type ComputerSeen, type ComputerStatus } from './computer-state';
import type {
  Account,
  Api,
  ConnectionInfo,
  Conversation,
  ConversationSummary,
  MachineRow,
  Model,
  SendOptions,
  StuckAnswer,
  UiError,
  Upload,
} from './api';

/** How often the machine list is re-read when nothing announced a change (not a busy loop). */
export const QUIET_REFRESH_MS = 60_000;

/** A task is under way (and may still be charged for). */
function working(status: Conversation['status']): boolean {
  return status === 'running' || status === 'needsApproval';
}

export class AppState implements Computers {
  connection = $state<ConnectionInfo | null>(null);
  machines = $state<MachineRow[]>([]);
  machinesLoaded = $state(false);
  machinesError = $state<UiError | null>(null);
  selectedMachineId = $state<string | null>(null);
  conversations = $state<ConversationSummary[]>([]);
  /** The first list of conversations has arrived: Porthole reads them after its first screen,
   * which with a long history takes a moment, so until then the list says it is loading. */
  conversationsArrived = $state(false);
  conversation = $state<Conversation | null>(null);
  models = $state<Model[]>([]);
  defaultModel = $state('auto');
  chosenModel = $state('auto');
  account = $state<Account | null>(null);
  accountError = $state<UiError | null>(null);
  /** An error from the last action, shown as a banner until dismissed. */
  actionError = $state<UiError | null>(null);
  /** Saved files the app could not read at start, set aside; shown until dismissed. */
  storedDataNotices = $state<(UiError | null)[]>([]);
  connectOpen = $state(false);
  /** The conversation "Delete conversation…" asks about, while its confirmation is open. */
  deleteAsked = $state<string | null>(null);
  busy = $state(false);
  /** What the window learned about each computer since the list was last read. */
  computersSeen = $state<Record<string, ComputerSeen>>({});

  readonly api: Api;
  private watched: string | null = null;
  /** Settles once the first screen has what it shows: the machine list (or why it could not be
   * read), or a connection that is not ready yet. The page mounts after it (main.ts), so the
   * first frame WebKit draws is the list: drawing an empty shell first and the list a moment
   * later cost a second full layout and paint of the window (~110 ms, BENCHMARKS.md). */
  readonly firstScreen: Promise<void>;
  private firstScreenReady: () => void = () => {};

  constructor(api: Api) {
    this.api = api;
    this.firstScreen = new Promise((resolve) => (this.firstScreenReady = resolve));
  }

  get selectedMachine(): MachineRow | null {
    return this.machines.find((m) => m.machineId === this.selectedMachineId) ?? null;
  }

  get isDemo(): boolean {
    return this.connection?.mode === 'demo';
  }

  /** Runs an action; its error becomes the banner. */
  async act<T>(f: () => Promise<T>): Promise<T | undefined> {
    this.actionError = null;
    try {
      return await f();
    } catch (e) {
      this.actionError = toUiError(e);
      return undefined;
    }
  }

  async start(): Promise<void> {
    // Side by side, not one after another: each is a round trip to Rust before the first
    // screen. The connection is read only once every listener is in place, so a change between
    // reading it and listening cannot be missed.
    // What could not be read at start is known once the conversations are read, which is
    // after the first screen (with a long history, a moment): it is not waited for.
    const notices = this.api
      .storedDataNotices()
      .then((said) => (this.storedDataNotices = said))
      .catch(() => undefined);
    await Promise.all([
      this.api.onConnectionChanged(() => void this.refreshConnection()),
      this.api.onMachinesChanged(() => void this.refreshMachines()),
      this.api.onConversationsChanged((machineId) => {
        if (machineId === this.selectedMachineId) void this.refreshConversations();
      }),
      this.api.onFocusConversation((machineId, conversationId) => {
        void this.selectMachine(machineId, conversationId);
      }),
    ]);
    await Promise.all([this.refreshConnection(), notices]);
  }

  /** A dismissed notice leaves an empty place: each one's index names its file to Rust
   *  ("Show the file", `api.showStoredDataFile`). */
  dismissStoredDataNotice(index: number): void {
    this.storedDataNotices = this.storedDataNotices.map((n, i) => (i === index ? null : n));
  }

  async refreshConnection(): Promise<void> {
    const before = this.connection;
    this.connection = await this.api.connectionInfo();
    const becameReady =
      this.connection.state === 'ready' &&
      (before?.state !== 'ready' || before?.mode !== this.connection.mode || before?.userId !== this.connection.userId);
    if (this.connection.state !== 'ready') this.firstScreenReady();
    if (becameReady) {
      performance.mark('porthole-connected');
      this.machinesLoaded = false;
      this.conversation = null;
      this.conversations = [];
      await Promise.all([this.refreshMachines(), this.refreshAccount(), this.refreshModels()]);
    }
  }

  async refreshMachines(): Promise<void> {
    if (this.connection?.state !== 'ready') return;
    try {
      this.machines = await this.api.listMachines();
      performance.mark('porthole-machines');
      this.machinesError = null;
      this.machinesLoaded = true;
      this.firstScreenReady();
      if (!this.selectedMachineId || !this.selectedMachine) {
        const first =
          this.machines.find((m) => m.cloud && m.kindKnown && m.availability === 'online') ??
          this.machines.find((m) => m.availability === 'online') ??
          this.machines[0];
        if (first) {
          // The list is drawn first; the chosen computer's column (its thread, its live
          // screen) follows a frame later instead of holding the first screen back.
          await afterPaint();
          if (!this.selectedMachineId || !this.selectedMachine) await this.selectMachine(first.machineId);
        }
      }
    } catch (e) {
      this.machinesError = toUiError(e);
    } finally {
      this.machinesLoaded = true;
      this.firstScreenReady();
    }
  }

  async refreshAccount(): Promise<void> {
    try {
      this.account = await this.api.getAccount();
      this.accountError = null;
    } catch (e) {
      this.accountError = toUiError(e);
    }
  }

  async refreshModels(): Promise<void> {
    try {
      const list = await this.api.listModels();
      this.models = list.models.filter((m) => m.allowed);
      this.defaultModel = list.default ?? 'auto';
      if (!this.models.some((m) => m.id === this.chosenModel)) this.chosenModel = this.defaultModel;
    } catch {
      this.models = [];
    }
  }

  /** The computer's current conversation: what a new message joins. */
  get currentConversationId(): string | null {
    return this.conversations.find((row) => row.current)?.id ?? null;
  }

  /** The open conversation is an earlier one: readable, but messages go to the current one. */
  get conversationFinished(): boolean {
    const id = this.currentConversationId;
    return this.conversation !== null && id !== null && this.conversation.id !== id;
  }

  async selectMachine(machineId: string, conversationId?: string): Promise<void> {
    this.selectedMachineId = machineId;
    const current = conversationId ? null : await this.act(() => this.api.currentConversation(machineId));
    await this.refreshConversations();
    const target = conversationId ?? current?.id;
    if (target) {
      await this.openConversation(target);
      await this.catchUp();
    }
  }

  /** Adds to the current conversation what the service holds that it does not show yet (said
   * from another copy of Porthole, or while the app was closed). Quiet when it fails: the next
   * task's end catches up again. */
  async catchUp(): Promise<void> {
    const id = this.currentConversationId;
    if (!id || this.conversation?.id !== id) return;
    try {
      await this.api.catchUpConversation(id);
    } catch {
      // Nothing to show: the thread stays as it was.
    }
  }

  async refreshConversations(): Promise<void> {
    const machineId = this.selectedMachineId;
    if (!machineId) return;
    try {
      const rows = await this.api.listConversations(machineId);
      if (machineId === this.selectedMachineId) this.conversations = rows;
    } catch (e) {
      this.actionError = toUiError(e);
    } finally {
      this.conversationsArrived = true;
    }
  }

  async openConversation(id: string): Promise<void> {
    if (this.watched && this.watched !== id) void this.api.unwatchConversation(this.watched);
    this.watched = id;
    await this.act(() =>
      this.api.watchConversation(id, (c) => {
        if (c.id === this.watched) {
          // A task that just ended has been charged: the balance shown beside what it cost is
          // read again, or it would still be the one from before the task.
          const before = this.conversation;
          if (before?.id === c.id && working(before.status) && !working(c.status)) void this.refreshAccount();
          this.conversation = c;
          if (c.model) this.chosenModel = c.model;
        }
      }),
    );
  }

  /** Starts a new conversation on the selected computer and opens it; whether it did. */
  async newConversation(): Promise<boolean> {
    const machineId = this.selectedMachineId;
    if (!machineId) return false;
    const created = await this.act(() => this.api.newConversation(machineId));
    if (!created) return false;
    await this.refreshConversations();
    await this.openConversation(created.id);
    return true;
  }

  /** Deletes conversation `id` here (the service keeps its own record); the computer's current
   * conversation is shown in its place when `id` was open. Whether it was deleted. */
  async deleteConversation(id: string): Promise<boolean> {
    const shown = await this.act(() => this.api.deleteConversation(id));
    if (!shown) return false;
    await this.refreshConversations();
    if (!this.conversation || this.conversation.id === id) await this.openConversation(shown.id);
    return true;
  }

  /** Stops the task of conversation `id`, open or not. */
  async stopIn(id: string): Promise<void> {
    await this.act(() => this.api.stopTask(id));
  }

  /** Sends `text` with the files and options that go with it, in one request; `next` holds it
   * until the running task ends instead of adding it to that task. */
  async send(
    text: string,
    extras: { attachments?: Upload[]; options?: SendOptions; next?: boolean; capUsd?: number | null } = {},
  ): Promise<boolean> {
    const c = this.conversation;
    if (!c || !text.trim()) return false;
    const model = this.chosenModel === this.defaultModel ? null : this.chosenModel;
    const call = extras.next ? this.api.runNext : this.api.sendMessage;
    const done = await this.act(async () => {
      await call({
        conversationId: c.id,
        text: text.trim(),
        model,
        attachments: extras.attachments ?? [],
        options: extras.options ?? { recordSteps: false, outputSchema: '', successCriteria: null },
        capUsd: extras.capUsd ?? null,
      });
      return true;
    });
    void this.refreshAccount();
    return done === true;
  }

  /** Sends again the message the service did not take; it is not recorded twice. */
  async retrySend(): Promise<void> {
    const c = this.conversation;
    if (c) await this.act(() => this.api.retrySend(c.id));
  }

  /** Takes a message held for after the running task out of the line. */
  async removeWaiting(waitingId: string): Promise<void> {
    const c = this.conversation;
    if (c) await this.act(() => this.api.removeWaiting(c.id, waitingId));
  }

  async stop(): Promise<void> {
    const c = this.conversation;
    if (c) await this.stopIn(c.id);
  }

  /** Answers the "it seems stuck" card of the open conversation; whether it was taken. */
  async answerStuck(answer: StuckAnswer): Promise<boolean> {
    const c = this.conversation;
    if (!c) return false;
    return (await this.act(async () => {
      await this.api.answerStuck(c.id, answer);
      return true;
    })) === true;
  }

  /** Answers card `approvalId` (the one the person saw); the refusal to show on it, if any.
   * `conversationId`: the card's conversation when it is answered elsewhere (the inbox); the
   * open one otherwise. */
  async answer(approvalId: string, approve: boolean, conversationId?: string): Promise<UiError | null> {
    return this.onCard((id) => this.api.answerApproval(id, approvalId, approve), conversationId);
  }

  /** Answers a choice card: one list of option values per question, in the card's order. */
  async choose(approvalId: string, selections: string[][], conversationId?: string): Promise<UiError | null> {
    return this.onCard((id) => this.api.chooseApproval(id, approvalId, selections), conversationId);
  }

  async openApprovalPage(approvalId: string, conversationId?: string): Promise<UiError | null> {
    return this.onCard((id) => this.api.openApprovalPage(id, approvalId), conversationId);
  }

  /** Answers the question a task asks near its cap (`raise`: let it go up to the raise it
   * offered); a refusal (the task ended meanwhile) is said on the card. */
  async answerCap(raise: boolean): Promise<UiError | null> {
    return this.onCard((id) => (raise ? this.api.raiseCap(id) : this.api.keepCap(id)));
  }

  /** A card's refusal is said on the card itself, which stays open to answer again. */
  private async onCard(
    f: (conversationId: string) => Promise<unknown>,
    conversationId?: string,
  ): Promise<UiError | null> {
    const id = conversationId ?? this.conversation?.id;
    if (!id) return null;
    try {
      await f(id);
      return null;
    } catch (e) {
      return toUiError(e);
    }
  }

  /** The computer's state as the sidebar, the header and the live screen all show it. */
  status(machineId: string): ComputerStatus {
    return computerStatus(
      this.machines.find((m) => m.machineId === machineId),
      this.computersSeen[machineId],
    );
  }

  private see(machineId: string, seen: ComputerSeen): void {
    const was = this.computersSeen[machineId] ?? {};
    if (Object.entries(seen).every(([k, v]) => (was[k as keyof ComputerSeen] ?? false) === v)) return;
    this.computersSeen = { ...this.computersSeen, [machineId]: { ...this.computersSeen[machineId], ...seen } };
  }

  /** The live screen learned that the computer is asleep, or that it is live again: every
   * place shows so at once, and the list is read again to catch up. */
  liveSaw(machineId: string, what: 'asleep' | 'live'): void {
    const before = this.status(machineId).state;
    this.see(machineId, { asleepSeen: what === 'asleep' });
    if (what === 'asleep' || before !== 'online') void this.refreshMachines();
  }

  /** Wakes a computer: "Waking up…" everywhere from the press, until the list (which the Rust
   * core re-reads while it starts) says how it is. */
  async wake(machineId: string): Promise<void> {
    this.see(machineId, { wakeAsked: true, asleepSeen: false });
    try {
      await this.act(() => this.api.wakeMachine(machineId));
      await this.refreshMachines();
    } finally {
      this.see(machineId, { wakeAsked: false });
    }
  }

  /** Checks and saves an account; returns the error to show in the form, if any. */
  async connectAccount(baseUrl: string, apiKey: string, versionTag: string | null = null): Promise<UiError | null> {
    this.busy = true;
    try {
      this.connection = await this.api.connectAccount(baseUrl, apiKey, versionTag);
      this.connectOpen = false;
      await this.refreshConnection();
      return null;
    } catch (e) {
      return toUiError(e);
    } finally {
      this.busy = false;
    }
  }

  /** After a sign-in: moves to the signed-in account, closing the account dialog when the
   *  connection changed. */
  async connectSignedIn(): Promise<UiError | null> {
    this.busy = true;
    try {
      const changed = await this.api.connectSignedIn();
      if (changed) this.connectOpen = false;
      await this.refreshConnection();
      return null;
    } catch (e) {
      return toUiError(e);
    } finally {
      this.busy = false;
    }
  }

  /** Starts the Demo fresh (Settings); `true` once it has. */
  async resetDemo(): Promise<boolean> {
    this.busy = true;
    try {
      const done = (await this.act(() => this.api.resetDemo())) !== undefined;
      await this.refreshConnection();
      return done;
    } finally {
      this.busy = false;
    }
  }

  async switchTo(target: 'demo' | 'account' | 'signOut'): Promise<void> {
    this.busy = true;
    try {
      const call =
        target === 'demo' ? this.api.useDemo : target === 'account' ? this.api.useAccount : this.api.signOut;
      await this.act(() => call());
      await this.refreshConnection();
    } finally {
      this.busy = false;
    }
  }
}

/** Resolves once the page has had the chance to draw what changed (a frame, then a task), or
 * after 50 ms where no frame comes (a hidden or minimised window draws none, nor does a test's
 * page). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    if (typeof requestAnimationFrame === 'function') {
      requestAnimationFrame(() => setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0));
    }
  });
}
