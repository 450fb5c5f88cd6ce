import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { BlockRun, MachineRow, ReusableTask } from '../../api';
import { ApiError } from '../../ui-error';

// Only the app's api module is replaced: the library, runs and repairs come through it.
const api = vi.hoisted(() => ({
  listReusable: vi.fn(),
  runReusable: vi.fn(),
  consoleScreenshot: vi.fn(),
  reportWrongResult: vi.fn(),
  healReusable: vi.fn(),
  removeReusable: vi.fn(),
}));
// Schedules made from a saved task go through the schedules' commands.
const schedulesApi = vi.hoisted(() => ({
  create: vi.fn(),
  list: vi.fn(),
  setAutostart: vi.fn(),
  defaultCap: vi.fn(async () => null),
  estimate: vi.fn(async () => ({ runs: 0, perRunUsd: null, perDayUsd: null })),
}));
vi.mock('../../api', () => ({ api, schedulesApi }));

import Library from './Library.svelte';

// jsdom lays nothing out; CodeMirror (the learned code) measures text ranges.
Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

const laptop: MachineRow = {
  machineId: 'm1', name: 'Design laptop', cloud: true, kindKnown: true, availability: 'online', canWake: false,
  freeComputer: false, updatedAt: null, startingSince: null,
};

const weather: ReusableTask = {
  id: 'r1', scope: 'demo', title: 'Weather lookup', template: 'Look up the weather in {{city}} for {{days}} days',
  parameters: [{ name: 'city', defaultValue: 'Paris' }, { name: 'days', defaultValue: 3 }],
  code: 'async function main({ city, days }) { return { city, days }; }',
  errors: [], warnings: ['It assumes the browser is already open.'],
  learnId: 'learn_1', sourceTurns: ['turn_1'], createdAt: null, changes: null, failedRuns: [],
};

function blockRun(extra: Partial<BlockRun['result']> = {}): BlockRun {
  return {
    result: { result: { forecast: 'sunny' }, logs: ['searched'], variables: [], durationMs: 900, error: null, ...extra },
    hasScreenshot: true, screenshotOmitted: false,
    state: { machineId: 'm1', open: true, ended: null, idleDeadlineMs: null },
  };
}

const input = (name: string) => screen.getAllByTestId('reusable-input').find((i) => i.dataset.name === name)!;

beforeEach(() => {
  vi.resetAllMocks();
  api.listReusable.mockResolvedValue([weather]);
  api.consoleScreenshot.mockResolvedValue('blob:run-shot');
});

describe('Reusable tasks library', () => {
  it('is the sentence with its changeable words as labelled fields, filled with last time’s words', async () => {
    render(Library, { machine: laptop });
    await waitFor(() => expect(input('city')).toHaveValue('Paris'));
    expect(input('days')).toHaveValue('3');
    expect(screen.getByTestId('reusable-sentence')).toHaveTextContent('Look up the weather in City');
    expect(input('city').closest('label')).toHaveTextContent('City');
    expect(screen.getByTestId('library-item')).toHaveTextContent('Look up the weather in ‹City› for ‹Days› days');
    expect(screen.getByTestId('reusable-title')).toHaveTextContent('Look up the weather in ‹City› for ‹Days› days');
    expect(screen.getByTestId('reusable-warnings')).toHaveTextContent('It assumes the browser is already open.');

    await userEvent.clear(input('days'));
    await userEvent.type(input('days'), '5');
    api.runReusable.mockResolvedValue(blockRun());
    await userEvent.click(screen.getByTestId('reusable-run'));

    // The unchanged city is passed too: the learned function's defaults are replaced whole.
    expect(api.runReusable).toHaveBeenCalledWith('r1', 'm1', { city: 'Paris', days: 5 });
    // The result in words, the console's panel (JSON, logs, variables) folded away.
    expect(await screen.findByTestId('reusable-result')).toHaveTextContent('Forecast: sunny');
    expect(screen.getByTestId('reusable-result')).not.toHaveTextContent('"');
    expect((screen.getByTestId('reusable-technical') as HTMLDetailsElement).open).toBe(false);
    expect(screen.getByTestId('run-logs')).toHaveTextContent('searched');
    expect(await screen.findByTestId('run-screenshot')).toHaveAttribute('src', 'blob:run-shot');
  });

  it('Schedule… runs the sentence with the words as filled in, on this computer', async () => {
    schedulesApi.create.mockResolvedValue({});
    schedulesApi.list.mockResolvedValue({ rows: [], allPaused: false, autostartAsked: true, keepsRunning: true });
    render(Library, { machine: laptop });
    await waitFor(() => expect(input('city')).toHaveValue('Paris'));
    await userEvent.clear(input('city'));
    await userEvent.type(input('city'), 'Rome');
    await userEvent.click(screen.getByTestId('reusable-schedule'));
    expect(screen.getByTestId('schedule-text')).toHaveValue('Look up the weather in Rome for 3 days');
    await userEvent.click(screen.getByTestId('schedule-kind-everyHours'));
    await userEvent.click(screen.getByTestId('schedule-save'));
    expect(schedulesApi.create).toHaveBeenCalledWith(expect.objectContaining({
      machineId: 'm1', machineName: 'Design laptop', text: 'Look up the weather in Rome for 3 days', reusableId: 'r1',
    }));
    await waitFor(() => expect(screen.queryByTestId('schedule-dialog')).not.toBeInTheDocument());
    expect(api.runReusable).not.toHaveBeenCalled();
  });

  it('shows progress while the computer opens and runs', async () => {
    let finish: (r: BlockRun) => void = () => {};
    api.runReusable.mockReturnValue(new Promise((r) => (finish = r)));
    render(Library, { machine: laptop });
    await userEvent.click(await screen.findByTestId('reusable-run'));
    expect(screen.getByTestId('reusable-running')).toHaveTextContent('can take up to three minutes');
    // Busy, not disabled: it keeps the keyboard focus, and a second press runs nothing twice.
    const run = screen.getByTestId('reusable-run');
    expect(run).toHaveAttribute('aria-disabled', 'true');
    expect(run).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(api.runReusable).toHaveBeenCalledTimes(1);
    finish(blockRun());
    await screen.findByTestId('run-output');
    expect(screen.queryByTestId('reusable-running')).not.toBeInTheDocument();
  });

  it('a run that cannot start says why and keeps the form', async () => {
    api.runReusable.mockRejectedValue(new ApiError({
      code: 'machine_busy', title: 'The computer is busy',
      detail: 'Another task is using this computer right now. Try again in a little while.',
      retryAt: null, action: null,
    }));
    render(Library, { machine: laptop });
    await userEvent.click(await screen.findByTestId('reusable-run'));
    expect(await screen.findByTestId('library-error')).toHaveTextContent('The computer is busy');
    expect(screen.getByTestId('reusable-run')).toBeEnabled();
    expect(screen.getByTestId('reusable-run')).toHaveAttribute('aria-disabled', 'false');
  });

  it('Fix it: a wrong result is reported, then repaired with feedback; what changed is shown', async () => {
    render(Library, { machine: laptop });
    api.runReusable.mockResolvedValue(blockRun());
    await userEvent.click(await screen.findByTestId('reusable-run'));
    await screen.findByTestId('run-output');
    expect(screen.queryByTestId('reusable-heal')).not.toBeInTheDocument();

    const failed = { inputs: { city: 'Paris', days: 3 }, result: { forecast: 'sunny' }, passed: false, note: 'It gave one day only' };
    api.reportWrongResult.mockResolvedValue({ ...weather, failedRuns: [failed] });
    await userEvent.type(screen.getByTestId('reusable-wrong-note'), 'It gave one day only');
    await userEvent.click(screen.getByRole('button', { name: 'The result is wrong' }));
    expect(api.reportWrongResult).toHaveBeenCalledWith('r1', { city: 'Paris', days: 3 }, blockRun().result, 'It gave one day only');

    const heal = await screen.findByTestId('reusable-heal');
    expect(heal).toHaveTextContent('1 run went wrong.');
    // The pressed button is disabled with its note gone: the keyboard goes on to Fix it's note.
    await waitFor(() => expect(within(heal).getByTestId('reusable-feedback')).toHaveFocus());
    await userEvent.type(within(heal).getByTestId('reusable-feedback'), 'Give every day');
    let repaired: (t: ReusableTask) => void = () => {};
    api.healReusable.mockReturnValue(new Promise((r) => (repaired = r)));
    await userEvent.click(screen.getByTestId('reusable-fix'));
    expect(screen.getByTestId('reusable-healing')).toHaveTextContent('Repairing');
    const [id, feedback, key] = api.healReusable.mock.calls[0];
    expect([id, feedback]).toEqual(['r1', 'Give every day']);
    expect(key).toMatch(/^porthole-/);

    repaired({
      ...weather, failedRuns: [],
      changes: 'Reads every day of the forecast. Why: it stopped after the first\nWaits for the page. Why: it was slow',
    });
    const changes = await screen.findByTestId('reusable-changes');
    const lines = within(changes).getAllByRole('listitem').map((l) => l.textContent);
    expect(lines).toEqual(['Reads every day of the forecast.', 'Waits for the page.']);
    expect(screen.queryByTestId('reusable-heal')).not.toBeInTheDocument();
    // Fix it went with the runs it settled: the keyboard goes on to what the repair changed.
    await waitFor(() => expect(changes).toHaveFocus());
  });

  it('a failed repair says why, and trying again sends the same key', async () => {
    const failing = { ...weather, failedRuns: [{ inputs: { city: 'Oslo', days: 2 }, passed: false }] };
    api.listReusable.mockResolvedValue([failing]);
    api.healReusable
      .mockRejectedValueOnce(new ApiError({ code: 'network', title: 'The service could not be reached', detail: 'Check your connection.', retryAt: null, action: 'retry' }))
      .mockResolvedValueOnce({ ...weather, changes: 'Waits for the page. Why: it was slow' });
    render(Library, { machine: laptop });
    await userEvent.click(await screen.findByTestId('reusable-fix'));
    expect(await screen.findByTestId('library-error')).toHaveTextContent('The service could not be reached');
    expect(screen.getByTestId('reusable-heal')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('reusable-fix'));
    await screen.findByTestId('reusable-changes');
    expect(api.healReusable.mock.calls[1][2]).toBe(api.healReusable.mock.calls[0][2]);
  });

  it('an empty library says how to fill it', async () => {
    api.listReusable.mockResolvedValue([]);
    render(Library, { machine: laptop });
    expect(await screen.findByTestId('library-empty')).toHaveTextContent('choose “Save this task” under its answer');
    expect(screen.queryByTestId('reusable-run-form')).not.toBeInTheDocument();
  });

  it('on an own desktop the task is shown but runs only on cloud computers', async () => {
    render(Library, { machine: { ...laptop, cloud: false, kindKnown: true, name: "Ada's MacBook" } });
    expect(await screen.findByTestId('reusable-title')).toHaveTextContent('Look up the weather in ‹City›');
    expect(screen.getByText(/Saved tasks run on cloud computers/)).toBeInTheDocument();
    expect(screen.queryByTestId('reusable-run')).not.toBeInTheDocument();
  });

  it('a run that asks to sign in gives a way the person can take, the raw code only in the details', async () => {
    api.runReusable.mockResolvedValue(blockRun({ result: null, error: { kind: 'exception', message: 'Error: needs_sign_in: Browser' } }));
    render(Library, { machine: laptop });
    await userEvent.click(await screen.findByTestId('reusable-run'));
    const problem = await screen.findByTestId('reusable-problem');
    expect(problem).toHaveTextContent('Browser on Design laptop asks to sign in');
    expect(problem).toHaveTextContent('send “Sign in to Browser”');
    expect(problem).not.toHaveTextContent('needs_sign_in');
  });

  it('removing asks first, and can be undone before it reaches the service', async () => {
    const other = { ...weather, id: 'r2', template: 'Find flights to {{city}}', title: 'Find flights to' };
    api.listReusable.mockResolvedValue([weather, other]);
    render(Library, { machine: laptop });
    await userEvent.click(await screen.findByTestId('reusable-remove'));
    expect(screen.getByTestId('reusable-remove-confirm')).toHaveTextContent('Remove it from your saved tasks?');
    await userEvent.click(screen.getByTestId('reusable-remove-no'));
    expect(screen.getAllByTestId('library-item')).toHaveLength(2);

    await userEvent.click(screen.getByTestId('reusable-remove'));
    await userEvent.click(screen.getByTestId('reusable-remove-yes'));
    expect(screen.getByTestId('reusable-removed')).toHaveTextContent('Removed “Look up the weather in ‹City› for ‹Days› days”.');
    expect(screen.getAllByTestId('library-item')).toHaveLength(1);
    expect(api.removeReusable).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId('reusable-undo'));
    expect(screen.getAllByTestId('library-item')).toHaveLength(2);
    expect(screen.getByTestId('reusable-title')).toHaveTextContent('Look up the weather');
    expect(api.removeReusable).not.toHaveBeenCalled();
  });

  it('a removal not undone reaches the service', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      api.removeReusable.mockResolvedValue(undefined);
      render(Library, { machine: laptop });
      await userEvent.click(await screen.findByTestId('reusable-remove'));
      await userEvent.click(screen.getByTestId('reusable-remove-yes'));
      await vi.advanceTimersByTimeAsync(10_001);
      expect(api.removeReusable).toHaveBeenCalledWith('r1');
    } finally {
      vi.useRealTimers();
    }
  });
});
