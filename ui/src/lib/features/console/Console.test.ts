import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { BlockRun, ConsoleState, MachineRow, UiError } from '../../api';
import { ApiError } from '../../ui-error';

// The app's api module is the only thing replaced: every console call goes through it.
const api = vi.hoisted(() => ({
  consoleState: vi.fn(),
  consoleOpen: vi.fn(),
  consoleRun: vi.fn(),
  consoleInterrupt: vi.fn(),
  consoleClose: vi.fn(),
  consoleScreenshot: vi.fn(),
  leaseEndings: vi.fn(),
}));
vi.mock('../../api', () => ({ api }));

import Console from './Console.svelte';

// jsdom lays nothing out; CodeMirror measures text ranges for its cursor and selection.
Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

const laptop: MachineRow = {
  machineId: 'm1', name: 'Design laptop', cloud: true, kindKnown: true, availability: 'online', canWake: false,
  freeComputer: false, updatedAt: null, startingSince: null,
};

const closedState: ConsoleState = { machineId: 'm1', open: false, ended: null, idleDeadlineMs: null };
const openState = (idleDeadlineMs: number | null = null): ConsoleState => ({
  machineId: 'm1', open: true, ended: null, idleDeadlineMs,
});

// The words the core gives for each way a lease ends (src-tauri error_words::lease_ended).
const endings: Record<string, UiError> = {
  closed: ended('The console was closed', 'The control session was closed, and the computer\'s variables were cleared. Open it again to go on.'),
  idle_timeout: ended('Closed after a quiet spell', 'No code ran for a while (10 minutes, or 2 when a task was waiting for this computer), so the computer was released. Open the console again to go on.'),
  lock_lost: ended('A task took the computer', 'The agent started a task on this computer while the console was quiet, so the console lost it. Open it again when the task is done.'),
  unresponsive: ended('The computer stopped answering', 'A block got no answer in time, so the console was closed. The next open starts a fresh one.'),
  shutdown: ended('The service restarted', 'The service behind the console restarted, which ended it. Open the console again.'),
};
function ended(title: string, detail: string): UiError {
  return { code: 'console_ended', title, detail, retryAt: null, action: 'retry' };
}

function blockRun(extra: Partial<BlockRun['result']> = {}, hasScreenshot = false): BlockRun {
  return {
    result: { result: null, logs: [], variables: [], durationMs: 10, error: null, ...extra },
    hasScreenshot, screenshotOmitted: false, state: openState(),
  };
}

async function openConsole() {
  api.consoleOpen.mockResolvedValue(openState());
  render(Console, { machine: laptop });
  await userEvent.click(await screen.findByTestId('console-open'));
  return editorLoaded();
}

/** The editor, once CodeMirror (loaded when first shown) has made it. */
async function editorLoaded() {
  const editor = await screen.findByTestId('console-editor');
  await waitFor(() => expect(editor.querySelector('.cm-content')).not.toBeNull());
  return editor;
}

beforeEach(() => {
  vi.resetAllMocks();
  api.consoleState.mockResolvedValue(closedState);
  api.leaseEndings.mockResolvedValue(Object.values(endings));
  api.consoleScreenshot.mockResolvedValue('blob:shot-1');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Control console', () => {
  it('shows that opening can take minutes, then the editor; Ctrl+Enter runs the block in it', async () => {
    let answer: (s: ConsoleState) => void = () => {};
    api.consoleOpen.mockReturnValue(new Promise((r) => (answer = r)));
    render(Console, { machine: laptop });
    await userEvent.click(await screen.findByTestId('console-open'));
    expect(screen.getByTestId('console-opening')).toHaveTextContent('can take up to three minutes');
    expect(api.consoleOpen).toHaveBeenCalledWith('m1');

    answer(openState());
    const editor = await editorLoaded();
    expect(screen.queryByTestId('console-opening')).not.toBeInTheDocument();
    api.consoleRun.mockResolvedValue(blockRun({ result: 42 }));
    const shownCode = editor.querySelector('.cm-content')!.textContent!;
    await userEvent.click(editor.querySelector('.cm-content')!);
    await userEvent.keyboard('{Control>}{Enter}{/Control}');

    await waitFor(() => expect(api.consoleRun).toHaveBeenCalledTimes(1));
    const [machineId, code] = api.consoleRun.mock.calls[0];
    expect(machineId).toBe('m1');
    // CodeMirror shows lines without their line breaks; the same code went out.
    expect(code.replace(/\n/g, '')).toBe(shownCode);
    expect(await screen.findByTestId('run-result')).toHaveTextContent('42');
  });

  it('shows the result as a tree to unfold, the logs, the screen, the variables and how long it took', async () => {
    await openConsole();
    api.consoleRun.mockResolvedValue(blockRun({
      result: { windows: [{ title: 'Notes', focused: true }], count: 1 },
      logs: ['open windows: 1', 'done'],
      variables: [{ name: 'shot', type: 'object', preview: '{ width: 1280, height: 800 }' }],
      durationMs: 1250,
    }, true));
    await userEvent.click(screen.getByTestId('console-run'));

    const tree = await screen.findByTestId('run-result');
    expect(tree).toHaveTextContent('count: 1');
    expect(tree).toHaveTextContent('windows: [1]');
    // Deeper levels start folded, and open on a click.
    expect(tree).not.toHaveTextContent('Notes');
    await userEvent.click(within(tree).getByRole('button', { name: /0: \{2\}/ }));
    expect(tree).toHaveTextContent('title: "Notes"');
    expect(tree).toHaveTextContent('focused: true');

    expect(screen.getByTestId('run-logs')).toHaveTextContent('open windows: 1 done');
    expect(screen.getByTestId('run-duration')).toHaveTextContent('1.25 s');
    const vars = screen.getByTestId('run-variables');
    expect(vars).toHaveTextContent('shot');
    expect(vars).toHaveTextContent('{ width: 1280, height: 800 }');
    const shot = await screen.findByTestId('run-screenshot');
    expect(shot).toHaveAttribute('src', 'blob:shot-1');
    expect(shot).toHaveAccessibleName("The computer's screen after the block");
    expect(api.consoleScreenshot).toHaveBeenCalledWith('m1');
  });

  it('says when the screenshot was too big to send back', async () => {
    await openConsole();
    api.consoleRun.mockResolvedValue({ ...blockRun({ result: 'ok' }), screenshotOmitted: true });
    await userEvent.click(screen.getByTestId('console-run'));
    expect(await screen.findByText('The screenshot was too large to send back.')).toBeInTheDocument();
    expect(screen.queryByTestId('run-screenshot')).not.toBeInTheDocument();
  });

  it('stops a running block, and says the person stopped it', async () => {
    await openConsole();
    let finish: (r: BlockRun) => void = () => {};
    api.consoleRun.mockReturnValue(new Promise((r) => (finish = r)));
    api.consoleInterrupt.mockResolvedValue(true);
    await userEvent.click(screen.getByTestId('console-run'));
    expect(screen.getByTestId('console-run')).toHaveTextContent('Running…');
    expect(screen.getByTestId('console-run')).toBeDisabled();

    await userEvent.click(screen.getByTestId('console-interrupt'));
    expect(api.consoleInterrupt).toHaveBeenCalledWith('m1');
    finish(blockRun({ error: { kind: 'interrupted', message: 'Interrupted' } }));
    expect(await screen.findByTestId('run-error')).toHaveTextContent('You stopped the code');
    expect(screen.queryByTestId('console-interrupt')).not.toBeInTheDocument();
    expect(screen.getByTestId('console-run')).toBeEnabled();
  });

  it('closes: the output goes, the reason shows, and it can be opened again', async () => {
    await openConsole();
    api.consoleRun.mockResolvedValue(blockRun({ result: 7 }));
    await userEvent.click(screen.getByTestId('console-run'));
    await screen.findByTestId('run-output');

    api.consoleClose.mockResolvedValue({ ...closedState, ended: endings.closed });
    await userEvent.click(screen.getByTestId('console-close'));
    expect(await screen.findByTestId('console-ended')).toHaveTextContent('The console was closed');
    expect(screen.queryByTestId('run-output')).not.toBeInTheDocument();
    expect(screen.queryByTestId('console-editor')).not.toBeInTheDocument();
    expect(screen.getByTestId('console-open')).toBeEnabled();
  });

  it('a block cut off because a task took the computer says so, and offers to open again', async () => {
    await openConsole();
    api.consoleRun.mockRejectedValue(new ApiError({
      code: 'console_lock_lost', title: 'A task took the computer', detail: endings.lock_lost.detail, retryAt: null, action: 'retry',
    }));
    api.consoleState.mockResolvedValue({ ...closedState, ended: endings.lock_lost });
    await userEvent.click(screen.getByTestId('console-run'));
    expect(await screen.findByTestId('console-ended')).toHaveTextContent('A task took the computer');
    expect(screen.queryByTestId('console-editor')).not.toBeInTheDocument();
    api.consoleOpen.mockResolvedValue(openState());
    await userEvent.click(screen.getByTestId('console-open'));
    expect(await screen.findByTestId('console-editor')).toBeInTheDocument();
  });

  it('counts down to the idle close while open', async () => {
    // Only the clock is frozen, so the countdown reads the same every run.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T04:00:00Z'));
    api.consoleOpen.mockResolvedValue(openState(Date.now() + 95_000));
    render(Console, { machine: laptop });
    await userEvent.click(await screen.findByTestId('console-open'));
    const idle = await screen.findByTestId('console-idle');
    expect(idle).toHaveTextContent('Closes if idle in 1 min 35 s');
  });

  it.each(Object.entries(endings))('explains a lease that ended with %s in plain words, with a way back', async (_reason, words) => {
    api.consoleState.mockResolvedValue({ ...closedState, ended: words });
    render(Console, { machine: laptop });
    const box = await screen.findByTestId('console-ended');
    expect(box).toHaveTextContent(words.title);
    expect(box).toHaveTextContent(words.detail);
    expect(box.textContent).not.toMatch(/idle_timeout|lock_lost|unresponsive|shutdown|control_closed/);
    expect(screen.getByTestId('console-open')).toBeEnabled();
  });

  it('lists every way a session ends', async () => {
    render(Console, { machine: laptop });
    await userEvent.click(await screen.findByText('How a console session ends'));
    for (const words of Object.values(endings)) {
      expect(screen.getByText(`${words.title}.`)).toBeInTheDocument();
    }
  });

  it('waits as long as a busy computer asks before trying again by itself', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const retryAt = Date.now() + 30_000;
    const busy: UiError = {
      code: 'machine_busy', title: 'The computer is busy',
      detail: 'Another task is using this computer right now. Try again in a little while.',
      retryAt, action: 'waitUntil',
    };
    api.consoleOpen.mockRejectedValueOnce(new ApiError(busy)).mockResolvedValueOnce(openState());
    render(Console, { machine: laptop });
    await vi.waitFor(() => expect(screen.getByTestId('console-open')).toBeInTheDocument());
    await user.click(screen.getByTestId('console-open'));

    const banner = await vi.waitFor(() => screen.getByTestId('console-error'));
    expect(banner).toHaveTextContent('The computer is busy');
    expect(screen.getByTestId('console-error-reset')).toHaveTextContent('in 30 s');

    await vi.advanceTimersByTimeAsync(29_000);
    expect(api.consoleOpen).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(api.consoleOpen).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(screen.getByTestId('console-editor')).toBeInTheDocument());
    expect(screen.queryByTestId('console-error')).not.toBeInTheDocument();
  });

  it('tells the owner of a desktop that the console is for cloud computers', () => {
    render(Console, { machine: { ...laptop, cloud: false, kindKnown: true, name: "Ada's MacBook" } });
    expect(screen.getByTestId('console-not-cloud')).toHaveTextContent("Ada's MacBook is your own desktop");
    expect(screen.queryByTestId('console-open')).not.toBeInTheDocument();
  });
});
