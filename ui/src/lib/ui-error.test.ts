import { afterEach, describe, expect, it } from 'vitest';
import { speak } from './i18n';
import { ApiError, Code, shown, toUiError, unexpectedError, wordsFor } from './ui-error';

describe('codes and their words', () => {
  afterEach(() => speak('en'));

  it('names every code by itself, so comparisons go through the generated type', () => {
    expect(Code.machine_busy).toBe('machine_busy');
    expect(Code.live_asleep).toBe('live_asleep');
    expect(Object.entries(Code).every(([name, code]) => name === code)).toBe(true);
  });

  it('words a failure saved as a code from the catalog, with its action and time', () => {
    const ui = shown({ code: 'insufficient_credits', retryAt: 1_893_542_400_000 });
    expect(ui).toEqual({
      code: 'insufficient_credits',
      title: 'You are out of credits',
      detail: expect.stringContaining('midnight UTC'),
      retryAt: 1_893_542_400_000,
      action: 'waitUntil',
      link: null,
    });
    expect(shown({ code: 'message_not_known_sent' }).retryAt).toBeNull();
  });

  it("keeps the page's own fallbacks in the same table", () => {
    expect(unexpectedError()).toEqual(wordsFor(Code.unexpected));
    expect(unexpectedError().title).toBe('Something went wrong');
    expect(toUiError(new Error('boom')).code).toBe(Code.unexpected);
    const refused = wordsFor(Code.live_page_unconnected);
    expect(toUiError(new ApiError(refused))).toBe(refused);
  });

  it('words a code in the language the page speaks, keeping its action', () => {
    speak('de');
    expect(wordsFor(Code.machine_busy)).toEqual({
      code: 'machine_busy',
      title: 'Der Computer ist beschäftigt',
      detail: expect.stringContaining('Versuch es gleich noch einmal'),
      retryAt: null,
      action: 'waitUntil',
      link: null,
    });
    speak('en');
    expect(wordsFor(Code.machine_busy).title).toBe('The computer is busy');
  });
});
