// The task's one state, against each state a person can meet: what the chip says, whether
// Stop and "Check now" are offered, what Send does and whether the answer may be reused. Each
// pair that once disagreed is asserted together.
import { afterEach, describe, expect, it } from 'vitest';
import { taskView } from './task-view';
import { computerStatus } from './computer-state';
import { conversation, machine } from '../tests/fake-api';
import { speak } from './i18n';
import type { ThreadItem } from './api';

const online = computerStatus(machine());
const user = (text: string, joined = false): ThreadItem => ({ kind: 'user', text, joined, attachments: [] });

afterEach(() => speak('en'));

describe('taskView', () => {
  it('an idle conversation on an awake computer: Ready, Send, no Stop', () => {
    const v = taskView(conversation(), online);
    expect(v.chip).toMatchObject({ words: 'Ready', tone: 'idle', status: 'idle' });
    expect(v).toMatchObject({ stop: false, checkNow: false, composer: 'send', offerReuse: false });
  });

  it('a running task: Working…, Stop, and messages join it', () => {
    const v = taskView(conversation({ status: 'running' }), online);
    expect(v.chip).toMatchObject({ words: 'Working…', tone: 'running' });
    expect(v).toMatchObject({ stop: true, checkNow: false, composer: 'addToTask' });
    expect(taskView(conversation({ status: 'running', reconnecting: true }), online).chip).toMatchObject({
      words: 'Reconnecting…', tone: 'reconnecting', status: 'running',
    });
    expect(taskView(conversation({ status: 'needsApproval', stopping: true }), online)).toMatchObject({
      stop: true, stopping: true, composer: 'addToTask',
    });
  });

  it('lost updates: Checking…, Stop kept and "Check now", never Ready', () => {
    const lost = conversation({
      status: 'idle',
      updatesLost: true,
      items: [user('Find the weather in Lisbon'), { kind: 'notice', what: 'updatesLost' }],
    });
    const v = taskView(lost, online);
    expect(v.chip).toMatchObject({ words: 'Checking…', tone: 'checking', status: 'idle' });
    expect(v.chip.words).not.toBe('Ready');
    expect(v).toMatchObject({ stop: true, checkNow: true, offerReuse: false });
    // Even on a computer the list calls asleep: the task may still run, so it is checked.
    expect(taskView(lost, computerStatus(machine({ availability: 'asleep', canWake: true }))).chip.tone).toBe('checking');
    // Once stopped, or caught up, the task is no longer checked.
    expect(taskView(conversation({ status: 'stopped', updatesLost: true }), online)).toMatchObject({ stop: false, checkNow: false });
    expect(taskView(conversation({ updatesLost: false }), online).chip.words).toBe('Ready');
  });

  it('a declined task: not a green Done, and neither saved nor scheduled', () => {
    const declined = conversation({
      status: 'succeeded',
      items: [user('Delete old-reports in Documents'), { kind: 'approval', title: 'Delete?' }, { kind: 'notice', what: 'denied' },
        { kind: 'answer', text: 'I did not delete it because you declined.' }],
    });
    const v = taskView(declined, online);
    expect(v.chip).toMatchObject({ words: 'Not done: you declined', tone: 'declined', status: 'succeeded' });
    expect(v).toMatchObject({ declined: true, offerReuse: false, stop: false });
    // A card declined in an earlier task does not colour the next one.
    const later = conversation({ status: 'succeeded', items: [...declined.items, user('Find the weather'), { kind: 'answer', text: 'Sunny' }] });
    expect(taskView(later, online)).toMatchObject({ declined: false, offerReuse: true });
    expect(taskView(later, online).chip).toMatchObject({ words: 'Done', tone: 'succeeded' });
    // A declined card answered after a message joined the task still counts for that task.
    const joined = conversation({ status: 'succeeded', items: [user('Delete it'), user('the big one', true), { kind: 'notice', what: 'denied' }] });
    expect(taskView(joined, online).declined).toBe(true);
  });

  it('a failed or stopped task is not offered for saving or a schedule', () => {
    expect(taskView(conversation({ status: 'failed' }), online)).toMatchObject({ offerReuse: false });
    expect(taskView(conversation({ status: 'failed' }), online).chip.words).toBe('Didn’t finish');
    expect(taskView(conversation({ status: 'stopped' }), online)).toMatchObject({ offerReuse: false, stop: false });
  });

  it('an idle chip says how the computer is: asleep, waking, or the free computer ready when you are', () => {
    const asleep = computerStatus(machine({ availability: 'asleep', canWake: true }));
    expect(taskView(conversation(), asleep).chip).toMatchObject({ words: 'Asleep', tone: 'computer' });
    const free = computerStatus(machine({ availability: 'freeReady', freeComputer: true }));
    // The same words as its row and its live screen: never "Ready" here and "asleep" there.
    expect(taskView(conversation(), free).chip).toMatchObject({ words: 'Ready when you are', tone: 'computer' });
    expect(taskView(null, free).chip.words).toBe('Ready when you are');
    const waking = computerStatus(machine({ availability: 'starting' }));
    expect(taskView(conversation({ status: 'running' }), waking).chip.words).toBe('Waking up…');
    // A task that runs on an awake computer speaks for itself.
    expect(taskView(conversation({ status: 'succeeded' }), asleep).chip.words).toBe('Done');
  });

  it('the cost: "so far" while the task runs, against its cap when it has one, the amount once it ended', () => {
    const usage = { costUsd: 0.12, byModel: {} } as unknown as NonNullable<ReturnType<typeof conversation>['usage']>;
    expect(taskView(conversation({ status: 'running' })).cost).toBeNull();
    expect(taskView(conversation({ status: 'running', usage })).cost?.words).toBe('$0.12 so far');
    expect(taskView(conversation({ status: 'needsApproval', usage, capUsd: 1 })).cost?.words).toBe('$0.12 of $1.00');
    const ended = taskView(conversation({ status: 'succeeded', usage, capUsd: 1 })).cost;
    expect(ended).toEqual({ words: '$0.12', spent: 0.12, cap: null, running: false });
    speak('de');
    expect(taskView(conversation({ status: 'running', usage, capUsd: 1 })).cost?.words).toBe('0,12\u00a0$ von 1,00\u00a0$');
  });

  it('an earlier conversation asks in a new one instead of sending', () => {
    expect(taskView(conversation({ status: 'succeeded' }), online, true).composer).toBe('newConversation');
  });

  it('speaks German', () => {
    speak('de');
    const lost = conversation({ updatesLost: true });
    expect(taskView(lost, online).chip.words).toBe('Wird geprüft …');
    const declined = conversation({ status: 'succeeded', items: [user('x'), { kind: 'notice', what: 'denied' }] });
    expect(taskView(declined, online).chip.words).toBe('Nicht erledigt: du hast abgelehnt');
  });
});
