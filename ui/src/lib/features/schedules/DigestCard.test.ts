import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import DigestCard from './DigestCard.svelte';
import type { Digest, ScheduleList, SchedulesApi } from './api';

const digest: Digest = {
  headline: '3 scheduled runs while you were away: 2 done, 1 needs you',
  lines: [
    { scheduleId: 's1', title: 'Check the weather', words: 'Done', done: true, machineId: 'm1', conversationId: 'c1' },
    { scheduleId: 's2', title: 'Look for invoices', words: 'Done', done: true, machineId: 'm2', conversationId: 'c2' },
    {
      scheduleId: 's3', title: 'Back up the photos', words: 'Missed: Studio archive could not be woken',
      done: false, machineId: 'm3', conversationId: null,
    },
  ],
};

function fake(shown: Digest | null): SchedulesApi {
  const list: ScheduleList = { rows: [], allPaused: false, autostartAsked: true, keepsRunning: true, digest: shown };
  return {
    list: vi.fn(async () => list),
    dismissDigest: vi.fn(async () => undefined),
    autostart: vi.fn(async () => false),
    onChanged: vi.fn(async () => () => {}),
  } as unknown as SchedulesApi;
}

describe('DigestCard', () => {
  it('shows nothing without a digest', async () => {
    const api = fake(null);
    render(DigestCard, { api });
    await waitFor(() => expect(api.list).toHaveBeenCalled());
    expect(screen.queryByTestId('schedule-digest')).toBeNull();
  });

  it('says the runs of the time away, opens a run’s conversation, and is dismissed', async () => {
    const api = fake(digest);
    const onopen = vi.fn();
    render(DigestCard, { api, onopen });
    expect(await screen.findByTestId('schedule-digest-headline'))
      .toHaveTextContent('3 scheduled runs while you were away: 2 done, 1 needs you');
    const lines = screen.getAllByTestId('schedule-digest-line');
    expect(lines.map((l) => l.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Check the weather Done',
      'Look for invoices Done',
      'Back up the photos Missed: Studio archive could not be woken',
    ]);
    await userEvent.click(lines[1]);
    expect(onopen).toHaveBeenCalledWith('m2', 'c2');
    // A run that never started opens the Schedules list, where Run now is.
    await userEvent.click(lines[2]);
    expect(await screen.findByTestId('schedules-list')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('schedule-digest-dismiss'));
    expect(api.dismissDigest).toHaveBeenCalled();
  });
});
