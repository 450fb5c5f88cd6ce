import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ScheduleDialog from './ScheduleDialog.svelte';
import type { SchedulesApi } from './api';
import type { RunEstimate } from '../../api';
import { speak } from '../../i18n';

const NO_RUNS: RunEstimate = { runs: 0, perRunUsd: null, perDayUsd: null };

function fake(autostartAsked: boolean, defaultCap: number | null = null, estimate: RunEstimate = NO_RUNS): SchedulesApi {
  return {
    list: vi.fn(async () => ({ rows: [], allPaused: false, autostartAsked, keepsRunning: true })),
    defaultCap: vi.fn(async () => defaultCap),
    estimate: vi.fn(async () => estimate),
    create: vi.fn(async () => ({})),
    setAutostart: vi.fn(async () => null),
    onChanged: vi.fn(async () => () => {}),
  } as unknown as SchedulesApi;
}

const machines = [{ machineId: 'm1', name: 'Design laptop' }, { machineId: 'm2', name: 'Research box' }];

describe('ScheduleDialog', () => {
  it('estimates a run and a day from earlier runs of the same words', async () => {
    const api = fake(true, null, { runs: 3, perRunUsd: 0.05, perDayUsd: 0.35 });
    render(ScheduleDialog, { api, machines, machineId: 'm1', text: 'Check the weather in Rome', onclose: vi.fn() });
    await waitFor(() =>
      expect(screen.getByTestId('schedule-estimate').textContent).toContain('About $0.05 a run, $0.35 a day at this rhythm.'),
    );
    expect(screen.getByTestId('schedule-estimate').textContent).toContain('From 3 earlier runs of these words.');
    expect(api.estimate).toHaveBeenCalledWith('Check the weather in Rome', expect.objectContaining({ kind: 'daily' }));
  });

  it('says there is nothing to estimate from for words never run', async () => {
    render(ScheduleDialog, { api: fake(true), machines, machineId: 'm1', text: 'Something new', onclose: vi.fn() });
    await waitFor(() => expect(screen.getByTestId('schedule-estimate').textContent).toContain('No earlier runs of these words yet'));
  });

  it('schedules the composer text on chosen weekdays, then asks once about starting at login', async () => {
    const api = fake(false);
    const onclose = vi.fn();
    render(ScheduleDialog, { api, machines, machineId: 'm1', text: 'Check the weather in Paris', onclose });
    await userEvent.click(screen.getByTestId('schedule-kind-weekdays'));
    await userEvent.click(screen.getByTestId('schedule-day-4')); // Friday off
    expect(screen.getByTestId('schedule-summary')).toHaveTextContent('Every Mon, Tue, Wed, Thu at 08:00 AM, on Design laptop.');
    await userEvent.click(screen.getByTestId('schedule-save'));
    expect(api.create).toHaveBeenCalledWith({
      machineId: 'm1', machineName: 'Design laptop', text: 'Check the weather in Paris', reusableId: null,
      repeat: { kind: 'weekdays', days: [0, 1, 2, 3], time: { hour: 8, minute: 0 } }, capUsd: null,
    });
    expect(await screen.findByTestId('autostart-question')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('autostart-no'));
    expect(api.setAutostart).toHaveBeenCalledWith(false);
    await waitFor(() => expect(onclose).toHaveBeenCalledWith(true));
  });

  it('starts each run at the every-task cap, and says plainly when there is none', async () => {
    const api = fake(true, 2);
    render(ScheduleDialog, { api, machines, machineId: 'm1', text: 'Send the report', onclose: vi.fn() });
    await waitFor(() => expect(screen.getByTestId('schedule-cap')).toHaveValue('2.00'));
    expect(screen.getByTestId('schedule-cap-note')).toHaveTextContent('only do so while Porthole is running');

    await userEvent.clear(screen.getByTestId('schedule-cap'));
    expect(screen.getByTestId('schedule-cap-note')).toHaveTextContent('No spending limit');
    await userEvent.type(screen.getByTestId('schedule-cap'), 'lots');
    await userEvent.click(screen.getByTestId('schedule-save'));
    expect(screen.getByTestId('schedule-problem')).toHaveTextContent('Type a sum of at least $0.01');
    expect(api.create).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByTestId('schedule-cap'));
    await userEvent.type(screen.getByTestId('schedule-cap'), '0.75');
    await userEvent.click(screen.getByTestId('schedule-save'));
    expect(api.create).toHaveBeenCalledWith(expect.objectContaining({ capUsd: 0.75 }));
  });

  it('says what is missing instead of saving', async () => {
    const api = fake(true);
    render(ScheduleDialog, { api, machines, machineId: 'm1', text: '', onclose: vi.fn() });
    await userEvent.click(screen.getByTestId('schedule-save'));
    expect(screen.getByTestId('schedule-problem')).toHaveTextContent('Write the task to run first.');
    expect(api.create).not.toHaveBeenCalled();
  });

  it('says the free computer runs start about two minutes late, only when it is the one chosen', async () => {
    const withFree = [...machines, { machineId: 'free', name: 'Free computer', freeComputer: true }];
    render(ScheduleDialog, { api: fake(true), machines: withFree, machineId: 'm1', text: 'Check mail', onclose: vi.fn() });
    expect(screen.queryByTestId('schedule-free-late')).toBeNull();
    await userEvent.selectOptions(screen.getByTestId('schedule-machine'), 'free');
    expect(screen.getByTestId('schedule-free-late')).toHaveTextContent(
      'Runs on Free computer start about two minutes after the time you set: the free computer cannot be woken ahead, it starts only when its run begins.',
    );
    await userEvent.selectOptions(screen.getByTestId('schedule-machine'), 'm2');
    expect(screen.queryByTestId('schedule-free-late')).toBeNull();
  });

  describe('in German', () => {
    afterEach(() => speak('en'));

    it('says in German that the free computer runs start late', () => {
      speak('de');
      const free = [{ machineId: 'free', name: 'Gratis', freeComputer: true }];
      render(ScheduleDialog, { api: fake(true), machines: free, machineId: 'free', text: 'Post lesen', onclose: vi.fn() });
      expect(screen.getByTestId('schedule-free-late')).toHaveTextContent(
        'Läufe auf Gratis beginnen etwa zwei Minuten nach der eingestellten Zeit: Der kostenlose Computer lässt sich nicht im Voraus wecken, er startet erst, wenn sein Lauf beginnt.',
      );
    });

    it('says the form, the days and the summary in German, and follows a change of language in place', async () => {
      speak('de');
      render(ScheduleDialog, { api: fake(true), machines, machineId: 'm1', text: 'Wetter in Paris', onclose: vi.fn() });
      expect(screen.getByRole('heading')).toHaveTextContent('Aufgabe planen');
      await userEvent.click(screen.getByTestId('schedule-kind-weekdays'));
      // Intl's short German day names ("Mo" or "Mo.", by engine).
      expect(screen.getByTestId('schedule-day-0').parentElement).toHaveTextContent(/^Mo\.?$/);
      await userEvent.click(screen.getByTestId('schedule-day-4'));
      expect(screen.getByTestId('schedule-summary')).toHaveTextContent(/^Jeden Mo\.?, Di\.?, Mi\.?, Do\.? um 08:00, auf Design laptop\.$/);
      expect(screen.getByTestId('schedule-save')).toHaveTextContent('Planen');

      speak('en');
      await waitFor(() => expect(screen.getByRole('heading')).toHaveTextContent('Schedule a task'));
      expect(screen.getByTestId('schedule-summary')).toHaveTextContent('Every Mon, Tue, Wed, Thu at 08:00 AM, on Design laptop.');
    });
  });
});
