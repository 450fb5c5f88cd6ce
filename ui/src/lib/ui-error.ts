// Errors as the page holds them: a UiError (worded in Rust) inside an Error.
import type { UiError } from './api';

export class ApiError extends Error {
  readonly ui: UiError;
  constructor(ui: UiError) {
    super(ui.title);
    this.ui = ui;
  }
}

export function unexpectedError(): UiError {
  return {
    code: 'unexpected',
    title: 'Something went wrong',
    detail: 'Porthole hit an unexpected problem. Try again; if it keeps happening, restart the app.',
    retryAt: null,
    action: 'retry',
  };
}

export function toUiError(e: unknown): UiError {
  return e instanceof ApiError ? e.ui : unexpectedError();
}
