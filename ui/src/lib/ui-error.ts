// Errors as the page holds them: a UiError (worded in Rust) inside an Error, and the page's
// one way to word a code itself. Every sentence comes from the catalog (locales/<language>/
// errors.json, `errors.<code>.title` / `.detail`), the same keys Rust words codes from; what
// the person can do about a code comes from Rust's words module as UI_ACTIONS.
import { UI_ACTIONS, type Problem, type UiCode, type UiError } from './bindings';
import { t, type Key } from './i18n';

/** Every code, by name, for comparisons: `e.code === Code.machine_busy` (a typo fails the
 * type check; comparing a code with a string literal fails lint). */
export const Code = Object.fromEntries(Object.keys(UI_ACTIONS).map((code) => [code, code])) as {
  readonly [C in UiCode]: C;
};

// A code without its title or sentence in the English catalog fails the type check here.
const titleKey = (code: UiCode) => `errors.${code}.title` as const satisfies Key;
const detailKey = (code: UiCode) => `errors.${code}.detail` as const satisfies Key;

/** The words for `code`, in the page's language. */
export function wordsFor(code: UiCode, retryAt: number | null = null): UiError {
  return { code, title: t(titleKey(code)), detail: t(detailKey(code)), retryAt, action: UI_ACTIONS[code], link: null };
}

/** A failure saved as a code (a conversation's failure, a message not sent), in words. */
export function shown(problem: Problem): UiError {
  return wordsFor(problem.code, problem.retryAt ?? null);
}

export class ApiError extends Error {
  readonly ui: UiError;
  constructor(ui: UiError) {
    super(ui.title);
    this.ui = ui;
  }
}

export function unexpectedError(): UiError {
  return wordsFor(Code.unexpected);
}

export function toUiError(e: unknown): UiError {
  return e instanceof ApiError ? e.ui : unexpectedError();
}
