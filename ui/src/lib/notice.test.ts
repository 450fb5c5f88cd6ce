import { afterEach, describe, expect, it } from 'vitest';
import { speak } from './i18n';
import { noticeText, statusNeedsPerson, statusText } from './notice';

describe('notices saved as facts', () => {
  afterEach(() => speak('en'));

  it('read as the sentences Rust words them', () => {
    expect(noticeText({ what: 'stopped' })).toBe('You stopped the task.');
    expect(noticeText({ what: 'approved' })).toBe('You approved the request.');
    expect(noticeText({ what: 'demoRestarted' })).toBe('The Demo was restarted, so this task ended.');
    expect(noticeText({ what: 'answered', picks: ['Blue', 'teal'] })).toBe('You answered: Blue, teal.');
  });

  it('say sums of money as the thread says them, never a cost that rounds to nothing', () => {
    expect(noticeText({ what: 'stoppedAtCap', capUsd: 0.5, costUsd: 0.5234 }))
      .toBe('Stopped at your $0.50 cap. This task cost $0.52.');
    expect(noticeText({ what: 'stoppedAtCap', capUsd: 0.01, costUsd: 0.004 }))
      .toBe('Stopped at your $0.01 cap. This task cost less than $0.01.');
    expect(noticeText({ what: 'notStoppedAtCap', capUsd: 2 }))
      .toBe('This task reached your $2.00 cap, but Porthole could not stop it. It keeps trying, and you can stop it now.');
    expect(noticeText({ what: 'capRaised', capUsd: 4 })).toBe('You let this task go up to $4.00.');
    expect(noticeText({ what: 'capKept', capUsd: 2 })).toBe('You kept your $2.00 cap: Porthole stops this task there.');
  });

  it('read in German, sums the German way, when the page speaks German', () => {
    speak('de');
    expect(noticeText({ what: 'stopped' })).toBe('Du hast die Aufgabe gestoppt.');
    expect(noticeText({ what: 'stoppedAtCap', capUsd: 0.5, costUsd: 0.004 }))
      .toBe('Bei deiner Grenze von 0,50\u00a0$ gestoppt. Diese Aufgabe hat weniger als 0,01\u00a0$ gekostet.');
    expect(statusText({ text: '', about: 'resending' })).toBe('Wird erneut gesendet…');
    expect(statusText({ text: 'stalled', about: 'stalled' })).toContain('noch nicht übernommen');
  });

  it('show words an earlier version saved as they were', () => {
    expect(noticeText({ what: 'earlier', text: 'Sure, I will also look at trains.' }))
      .toBe('Sure, I will also look at trains.');
  });
});

describe('delivery lines', () => {
  it('say the app\'s own "Sending again…" from its words and the service\'s news as it came', () => {
    expect(statusText({ text: '', about: 'resending' })).toBe('Sending again…');
    expect(statusText({ text: 'Sending again…', about: 'resending' })).toBe('Sending again…');
    expect(statusText({ text: 'Waking Research box, about a minute', about: 'waking' }))
      .toBe('Waking Research box, about a minute');
  });
});

describe('status news', () => {
  it('says a task the own computer has not picked up in Porthole’s words, with a way out', () => {
    const said = statusText({ text: 'Agent has not picked up the task', about: 'stalled' });
    expect(said).toContain('may be asleep or offline');
    expect(said).toContain('press Stop');
    expect(statusNeedsPerson('stalled')).toBe(true);
    expect(statusNeedsPerson('waking')).toBe(false);
    expect(statusText({ text: 'Waking Design laptop', about: 'waking' })).toBe('Waking Design laptop');
  });
});
