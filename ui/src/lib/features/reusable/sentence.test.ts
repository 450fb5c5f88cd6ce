import { afterEach, describe, expect, it } from 'vitest';
import { extraParameters, fieldLabel, filledTask, plainResult, reusableTitle, sentenceParts, taskName } from './sentence';
import { speak } from '../../i18n';

describe('a reusable task as a sentence', () => {
  it('splits the template into words and named fields', () => {
    expect(sentenceParts('Look up the weather in {{place}} on {{ day }}')).toEqual([
      { kind: 'text', text: 'Look up the weather in ' },
      { kind: 'field', name: 'place' },
      { kind: 'text', text: ' on ' },
      { kind: 'field', name: 'day' },
    ]);
  });

  it('labels fields in words and keeps them in the name', () => {
    expect(fieldLabel('place')).toBe('Place');
    expect(fieldLabel('start_date')).toBe('Start date');
    expect(fieldLabel('startDate')).toBe('Start date');
    expect(taskName({ title: 'Look up the weather in', template: 'Look up the weather in {{place}}' }))
      .toBe('Look up the weather in ‹Place›');
    expect(taskName({ title: 'Tidy up', template: '' })).toBe('Tidy up');
  });

  it('lists parameters the sentence does not show', () => {
    expect(extraParameters('In {{place}}', [{ name: 'place' }, { name: 'units' }])).toEqual([{ name: 'units' }]);
  });
});

describe('filledTask', () => {
  const task = {
    title: 'Weather lookup',
    template: 'Look up the weather in {{place}} for {{ days }} days',
    parameters: [{ name: 'place', defaultValue: 'Paris' }, { name: 'days', defaultValue: 3 }, { name: 'units', defaultValue: 'metric' }],
  };
  it('is the sentence as typed, with the words filled in and last time’s where none was typed', () => {
    expect(filledTask(task, { place: ' Rome ', units: 'metric' })).toBe('Look up the weather in Rome for 3 days (Units: metric)');
  });
  it('names the words the sentence has no place for, and leaves out empty ones', () => {
    expect(filledTask(task, { place: 'Oslo', days: '2', units: '' })).toBe('Look up the weather in Oslo for 2 days');
  });
  it('is the title when there is no sentence', () => {
    expect(filledTask({ ...task, template: '', parameters: [] }, {})).toBe('Weather lookup');
  });
});

describe('plainResult', () => {
  it('shows text as text: no quotes, real line breaks', () => {
    expect(plainResult('Rome: 21 °C\nSunny\n')).toBe('Rome: 21 °C\nSunny');
    expect(plainResult('Rome: 21 °C')).not.toContain('"');
  });

  it('shows objects and lists as labelled lines', () => {
    expect(plainResult({ city: 'Rome', temperature_c: 21 })).toBe('City: Rome\nTemperature c: 21');
    expect(plainResult(['a', 'b'])).toBe('• a\n• b');
    expect(plainResult(null)).toBe('Nothing came back.');
  });
});

describe('runProblem', () => {
  it('gives a sign-in a way out the person can take, without the raw code', async () => {
    const { runProblem } = await import('./problems');
    const p = runProblem('Error: needs_sign_in: Browser', 'Design laptop');
    expect(p.title).toBe('Browser on Design laptop asks to sign in');
    expect(p.detail).toContain('send “Sign in to Browser”');
    expect(p.detail).not.toContain('needs_sign_in');
    expect(p.detail).not.toContain('live screen');
  });
});

describe('an untitled saved task', () => {
  afterEach(() => speak('en'));

  it('is saved without words and named in the page’s language when shown', () => {
    expect(reusableTitle('')).toBe('Saved task');
    expect(reusableTitle('  ')).toBe('Saved task');
    expect(taskName({ title: '', template: '' })).toBe('Saved task');
    expect(reusableTitle('Tidy up')).toBe('Tidy up');
    speak('de');
    expect(reusableTitle('')).toBe('Gespeicherte Aufgabe');
    expect(taskName({ title: '', template: '' })).toBe('Gespeicherte Aufgabe');
    expect(reusableTitle('Tidy up')).toBe('Tidy up');
  });
});
