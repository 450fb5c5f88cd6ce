import { afterEach, describe, expect, it } from 'vitest';
import { describeRepeat, lastWords, nextWords, repeatFrom, when, type RepeatForm } from './words';
import type { Schedule } from './api';
import { speak } from '../../i18n';

const now = new Date(2026, 2, 27, 7, 0).getTime(); // Friday 27 March 2026, 07:00 local

function schedule(over: Partial<Schedule> = {}): Schedule {
  return {
    id: 's1', scope: 'demo', machineId: 'm1', machineName: 'Design laptop', title: 'Weather',
    text: 'Weather', reusableId: null, repeat: { kind: 'daily', time: { hour: 8, minute: 0 } },
    paused: false, createdAt: now, settledUntil: now, missed: null, last: null, ...over,
  };
}

const form = (over: Partial<RepeatForm>): RepeatForm => ({
  kind: 'daily', onceAt: '', time: '08:00', days: [0, 1, 2, 3, 4], hours: 4, ...over,
});

describe('schedule words', () => {
  it('says how often in plain words', () => {
    expect(describeRepeat({ kind: 'daily', time: { hour: 8, minute: 5 } }, now)).toBe('Every day at 08:05 AM');
    expect(describeRepeat({ kind: 'weekdays', days: [4, 0, 1, 2, 3], time: { hour: 9, minute: 0 } }, now))
      .toBe('Every weekdays at 09:00 AM');
    expect(describeRepeat({ kind: 'weekdays', days: [0, 2], time: { hour: 9, minute: 0 } }, now))
      .toBe('Every Mon, Wed at 09:00 AM');
    expect(describeRepeat({ kind: 'everyHours', hours: 1, from: now }, now)).toBe('Every hour');
    expect(describeRepeat({ kind: 'everyHours', hours: 6, from: now }, now)).toBe('Every 6 hours');
    expect(describeRepeat({ kind: 'once', at: now + 3_600_000 }, now)).toBe('Once, today at 08:00 AM');
  });

  it('says when next, paused, or done', () => {
    expect(when(now + 25 * 3_600_000, now)).toBe('tomorrow at 08:00 AM');
    expect(nextWords(now + 3_600_000, schedule(), false, now)).toBe('Next: today at 08:00 AM');
    expect(nextWords(now + 3_600_000, schedule({ paused: true }), false, now)).toBe('Paused');
    expect(nextWords(now + 3_600_000, schedule(), true, now)).toBe('Paused');
    expect(nextWords(null, schedule(), false, now)).toBe('No more runs');
  });

  it('says what the last run did, the reason of a skipped one included', () => {
    expect(lastWords(schedule(), now)).toBeNull();
    const done = schedule({ last: { dueAt: now, at: now, outcome: { kind: 'ended', conversationId: 'c1', status: 'succeeded' } } });
    expect(lastWords(done, now)).toBe('Last run today at 07:00 AM: Done');
    const skipped = schedule({ last: { dueAt: now, at: now, outcome: { kind: 'skipped', reason: { code: 'schedule_hourly_limit' } } } });
    expect(lastWords(skipped, now)).toBe(
      'Last run today at 07:00 AM: Skipped: Porthole already sent 60 tasks in the past hour, the most the service takes. The next run is as planned.',
    );
  });

  it('turns the form into a schedule, or says what is missing', () => {
    expect(repeatFrom(form({ kind: 'daily', time: '08:30' }), now)).toEqual({ kind: 'daily', time: { hour: 8, minute: 30 } });
    expect(repeatFrom(form({ kind: 'weekdays', days: [] }), now)).toBe('Choose at least one day of the week.');
    expect(repeatFrom(form({ kind: 'daily', time: '' }), now)).toBe('Choose a time of day.');
    expect(repeatFrom(form({ kind: 'everyHours', hours: 0 }), now)).toMatch(/from 1 to 168/);
    expect(repeatFrom(form({ kind: 'everyHours', hours: 2 }), now)).toEqual({ kind: 'everyHours', hours: 2, from: now + 7_200_000 });
    expect(repeatFrom(form({ kind: 'once', onceAt: '2026-03-27T06:00' }), now)).toMatch(/already passed/);
    expect(repeatFrom(form({ kind: 'once', onceAt: '2026-03-27T09:15' }), now))
      .toEqual({ kind: 'once', at: new Date(2026, 2, 27, 9, 15).getTime() });
  });

  describe('in German', () => {
    afterEach(() => speak('en'));

    it('says how often, when next and the last run in German, on the 24-hour clock', () => {
      speak('de');
      expect(describeRepeat({ kind: 'daily', time: { hour: 8, minute: 5 } }, now)).toBe('Jeden Tag um 08:05');
      expect(describeRepeat({ kind: 'everyHours', hours: 1, from: now }, now)).toBe('Jede Stunde');
      expect(describeRepeat({ kind: 'everyHours', hours: 6, from: now }, now)).toBe('Alle 6 Stunden');
      expect(nextWords(now + 11 * 3_600_000, schedule(), false, now)).toBe('Nächster: heute um 18:00');
      expect(nextWords(null, schedule(), false, now)).toBe('Keine weiteren Durchläufe');
      const done = schedule({ last: { dueAt: now, at: now, outcome: { kind: 'ended', conversationId: 'c1', status: 'succeeded' } } });
      expect(lastWords(done, now)).toBe('Letzter Durchlauf heute um 07:00: Fertig');
      expect(repeatFrom(form({ kind: 'weekdays', days: [] }), now)).toBe('Wähle mindestens einen Wochentag.');
    });
  });
});
