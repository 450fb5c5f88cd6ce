import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import SchedulesList from './SchedulesList.svelte';
import type { Schedule, ScheduleList, SchedulesApi } from './api';

function schedule(over: Partial<Schedule> = {}): Schedule {
  return {
    id: 's1', scope: 'demo', machineId: 'm1', machineName: 'Design laptop', title: 'Send the daily report',
    text: 'Send the daily report', reusableId: null, repeat: { kind: 'daily', time: { hour: 8, minute: 0 } },
    capUsd: null, paused: false, createdAt: 1, settledUntil: 1, missed: null, last: null, ...over,
  };
}

function fake(shown: Omit<ScheduleList, 'digest'>): SchedulesApi {
  const list: ScheduleList = { digest: null, ...shown };
  return {
    list: vi.fn(async () => list),
    create: vi.fn(),
    remove: vi.fn(async () => null),
    pause: vi.fn(async () => null),
    pauseAll: vi.fn(async () => null),
    runNow: vi.fn(async () => null),
    setCap: vi.fn(async () => null),
    autostart: vi.fn(async () => false),
    setAutostart: vi.fn(async () => null),
    onChanged: vi.fn(async () => () => {}),
  } as unknown as SchedulesApi;
}

describe('SchedulesList', () => {
  it('shows the end of a run that ended while the list was opening, and never an older read', async () => {
    const running = schedule({ last: { dueAt: 1, at: Date.now(), outcome: { kind: 'started', conversationId: 'c1', held: false } } });
    const ended = schedule({ last: { dueAt: 1, at: Date.now(), outcome: { kind: 'ended', conversationId: 'c1', status: 'stopped' } } });
    const listOf = (s: Schedule): ScheduleList => ({
      rows: [{ schedule: s, nextAt: null }], allPaused: false, autostartAsked: true, keepsRunning: true, digest: null,
    });
    let firstRead: (l: ScheduleList) => void = () => {};
    let listening: () => void = () => {};
    const api = fake({ rows: [], allPaused: false, autostartAsked: true, keepsRunning: true });
    api.list = vi.fn()
      // The first read was taken before the run's end, and answers last.
      .mockImplementationOnce(() => new Promise<ScheduleList>((resolve) => (firstRead = resolve)))
      .mockImplementation(async () => listOf(ended));
    // The run ends before the listener is in place: no event reaches the list.
    api.onChanged = vi.fn(() => new Promise<() => void>((resolve) => (listening = () => resolve(() => {}))));
    render(SchedulesList, { api, onclose: vi.fn() });
    listening();
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
    expect(await screen.findByTestId('schedule-last')).toHaveTextContent('Stopped');
    firstRead(listOf(running));
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.getByTestId('schedule-last')).toHaveTextContent('Stopped');
    expect(screen.getByTestId('schedule-last')).not.toHaveTextContent('Running now');
  });

  it('says a schedule without a cap has no spending limit, and gives it one', async () => {
    const api = fake({
      rows: [
        { schedule: schedule(), nextAt: Date.now() + 3_600_000 },
        { schedule: schedule({ id: 's2', title: 'Check prices', capUsd: 0.5 }), nextAt: Date.now() + 7_200_000 },
      ],
      allPaused: false, autostartAsked: true, keepsRunning: true,
    });
    render(SchedulesList, { api, onclose: vi.fn() });
    const caps = await screen.findAllByTestId('schedule-cap');
    expect(caps[0]).toHaveTextContent('No spending limit');
    expect(caps[1]).toHaveTextContent('Up to $0.50 a run');
    await userEvent.click(screen.getAllByTestId('schedule-set-cap')[0]);
    await userEvent.type(screen.getByTestId('schedule-cap-input'), '1.25');
    await userEvent.click(screen.getByTestId('schedule-cap-save'));
    expect(api.setCap).toHaveBeenCalledWith('s1', 1.25);
  });

  it('shows a missed run with Run now, and the rule about the tray', async () => {
    const api = fake({
      rows: [{ schedule: schedule({ missed: Date.now() - 3_600_000 }), nextAt: Date.now() + 3_600_000 }],
      allPaused: false, autostartAsked: true, keepsRunning: true,
    });
    render(SchedulesList, { api, onclose: vi.fn() });
    expect(await screen.findByTestId('schedule-missed')).toHaveTextContent('Porthole was not running');
    expect(screen.getByTestId('schedules-rule')).toHaveTextContent('keeps running in the tray');
    await userEvent.click(screen.getByTestId('schedule-run-now'));
    expect(api.runNow).toHaveBeenCalledWith('s1');
  });

  it('says why a run was missed when its computer could not wake, and a run waiting for it to wake', async () => {
    const api = fake({
      rows: [
        { schedule: schedule({ missed: Date.now() - 60_000, missedWhy: 'cannotWake', machineName: 'Studio archive' }), nextAt: null },
        { schedule: schedule({ id: 's2', held: Date.now(), heldForWake: true, machineName: 'Research box' }), nextAt: null },
      ],
      allPaused: false, autostartAsked: true, keepsRunning: true,
    });
    render(SchedulesList, { api, onclose: vi.fn() });
    expect(await screen.findByTestId('schedule-missed'))
      .toHaveTextContent('Studio archive is asleep and the service cannot wake it');
    expect(screen.getByTestId('schedule-held')).toHaveTextContent('waits for Research box to wake');
  });

  it('says a run held for a busy computer waits, and why a run held too long was missed', async () => {
    const api = fake({
      rows: [
        { schedule: schedule({ held: Date.now() - 60_000 }), nextAt: Date.now() + 3_600_000 },
        { schedule: schedule({ id: 's2', missed: Date.now() - 3_600_000, missedWhy: 'busy' }), nextAt: null },
      ],
      allPaused: false, autostartAsked: true, keepsRunning: true,
    });
    render(SchedulesList, { api, onclose: vi.fn() });
    expect(await screen.findByTestId('schedule-held')).toHaveTextContent('waits for Design laptop to finish the task before it');
    expect(screen.getByTestId('schedule-missed')).toHaveTextContent('Design laptop was still busy with the task before it');
    expect(screen.getAllByTestId('schedule-run-now')).toHaveLength(1);
  });

  it('asks before deleting, and Keep deletes nothing', async () => {
    const api = fake({ rows: [{ schedule: schedule(), nextAt: null }], allPaused: false, autostartAsked: true, keepsRunning: false });
    render(SchedulesList, { api, onclose: vi.fn() });
    await userEvent.click(await screen.findByTestId('schedule-delete'));
    await userEvent.click(screen.getByTestId('schedule-delete-no'));
    expect(api.remove).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId('schedule-delete'));
    await userEvent.click(screen.getByTestId('schedule-delete-yes'));
    expect(api.remove).toHaveBeenCalledWith('s1');
  });

  it('pauses one, pauses all, and shows a failure in words', async () => {
    const api = fake({ rows: [{ schedule: schedule(), nextAt: Date.now() + 60_000 }], allPaused: false, autostartAsked: true, keepsRunning: true });
    render(SchedulesList, { api, onclose: vi.fn() });
    await userEvent.click(await screen.findByTestId('schedule-pause'));
    expect(api.pause).toHaveBeenCalledWith('s1', true);
    await userEvent.click(screen.getByTestId('schedules-pause-all'));
    expect(api.pauseAll).toHaveBeenCalledWith(true);
    const { ApiError } = await import('../../ui-error');
    vi.mocked(api.pause).mockRejectedValueOnce(
      new ApiError({ code: 'unknown_schedule', title: 'Schedule not found', detail: 'This schedule was deleted.', retryAt: null, action: null }),
    );
    await userEvent.click(screen.getByTestId('schedule-pause'));
    await waitFor(() => expect(screen.getByTestId('schedules-error')).toHaveTextContent('This schedule was deleted.'));
  });

  it('says what to do when there is none', async () => {
    render(SchedulesList, { api: fake({ rows: [], allPaused: false, autostartAsked: false, keepsRunning: false }), onclose: vi.fn() });
    expect(await screen.findByTestId('schedules-empty')).toHaveTextContent('Schedule…');
  });
});
