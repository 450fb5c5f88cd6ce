import { describe, expect, it, vi } from 'vitest';
import { computerStatus } from './computer-state';
import { AppState } from './app.svelte';
import { fakeApi, machine } from '../tests/fake-api';
import type { MachineRow } from './api';

const row = (over: Partial<MachineRow>) => machine({ canWake: true, ...over });

describe('computerStatus', () => {
  it('reads the machine list: online, asleep, waking, starting, cannot be woken', () => {
    expect(computerStatus(row({}))).toEqual({ state: 'online', words: 'Online', canWake: false });
    expect(computerStatus(row({ availability: 'asleep' }))).toEqual({ state: 'asleep', words: 'Asleep', canWake: true });
    expect(computerStatus(row({ availability: 'asleep', canWake: false }))).toEqual({
      state: 'cannotWake', words: 'Can’t be woken', canWake: false,
    });
    expect(computerStatus(row({ availability: 'starting' })).words).toBe('Waking up…');
    expect(computerStatus(row({ availability: 'starting', freeComputer: true })).state).toBe('starting');
    expect(computerStatus(row({ availability: 'goingToSleep' }))).toMatchObject({ state: 'goingToSleep', canWake: false });
    expect(computerStatus(undefined).state).toBe('offline');
  });

  it('is "waking" from the moment Wake is pressed, before the list says so', () => {
    expect(computerStatus(row({ availability: 'asleep' }), { wakeAsked: true }).state).toBe('waking');
    expect(computerStatus(row({ availability: 'goingToSleep' }), { wakeAsked: true }).state).toBe('waking');
  });

  it('believes the live screen that found it asleep over a list not read again yet', () => {
    expect(computerStatus(row({}), { asleepSeen: true })).toMatchObject({ state: 'asleep', canWake: true });
    expect(computerStatus(row({ availability: 'goingToSleep' }), { asleepSeen: true }).state).toBe('asleep');
    // Once the list says it is waking, that wins.
    expect(computerStatus(row({ availability: 'starting' }), { asleepSeen: true }).state).toBe('waking');
  });
});

describe('AppState as the one source of a computer’s state', () => {
  it('says waking from the press until the list says online, and asleep as soon as the live screen does', async () => {
    let availability: MachineRow['availability'] = 'asleep';
    let answerWake: () => void = () => {};
    const api = fakeApi({
      listMachines: vi.fn(async () => [row({ availability })]),
      wakeMachine: vi.fn(() => new Promise<null>((resolve) => (answerWake = () => resolve(null)))),
    });
    const app = new AppState(api);
    await app.refreshConnection();
    expect(app.status('m1').state).toBe('asleep');

    const woken = app.wake('m1');
    expect(app.status('m1').state).toBe('waking');
    availability = 'starting';
    answerWake();
    await woken;
    expect(app.status('m1').state).toBe('waking');
    availability = 'online';
    await app.refreshMachines();
    expect(app.status('m1').state).toBe('online');

    // It fell asleep under the live screen: asleep at once, and the list is read again.
    const reads = vi.mocked(api.listMachines).mock.calls.length;
    app.liveSaw('m1', 'asleep');
    expect(app.status('m1').state).toBe('asleep');
    expect(api.listMachines).toHaveBeenCalledTimes(reads + 1);
    // Live again: the list's word holds.
    app.liveSaw('m1', 'live');
    expect(app.status('m1').state).toBe('online');
  });

  it('goes back to what the list says when the wake is refused', async () => {
    const api = fakeApi({
      listMachines: vi.fn(async () => [row({ availability: 'asleep', canWake: false })]),
      wakeMachine: vi.fn(async () => {
        throw { ui: { code: 'cannot_wake', title: 'No', detail: 'It cannot be woken.', retryAt: null, action: null } };
      }),
    });
    const app = new AppState(api);
    await app.refreshConnection();
    await app.wake('m1');
    expect(app.status('m1').state).toBe('cannotWake');
    expect(app.actionError).not.toBeNull();
  });
});
