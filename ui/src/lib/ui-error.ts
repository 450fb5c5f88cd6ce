// Errors as the page holds them: a UiError (worded in Rust) inside an Error, and the page's
// one way to word a code itself. Every sentence comes from Rust's words module (src-tauri/src/
// words), generated into the bindings as UI_WORDS; the page writes none of its own.
import { UI_WORDS, type Problem, type UiCode, type UiError } from './bindings';

/** Every code, by name, for comparisons: `e.code === Code.machine_busy` (a typo fails the
 * type check; comparing a code with a string literal fails lint). */
export const Code = Object.fromEntries(Object.keys(UI_WORDS).map((code) => [code, code])) as {
  readonly [C in UiCode]: C;
};

/** The words for `code`, as Rust words it. */
export function wordsFor(code: UiCode, retryAt: number | null = null): UiError {
  const words = UI_WORDS[code];
  return { code, title: words.title, detail: words.detail, retryAt, action: words.action };
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
