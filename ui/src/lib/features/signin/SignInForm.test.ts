import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import SignInForm from './SignInForm.svelte';
import { ApiError } from '../../ui-error';
import type { IdentityInfo } from '../../api';

const ada: IdentityInfo = { baseUrl: 'http://127.0.0.1:9', displayName: 'Ada', demo: false };

/** A browser that has not come back yet: the test decides when (and whether) it does. */
function waitingBrowser() {
  let answer!: (identity: IdentityInfo) => void;
  let fail!: (e: unknown) => void;
  const api = {
    signInWithBrowser: vi.fn(
      () =>
        new Promise<IdentityInfo>((resolve, reject) => {
          answer = resolve;
          fail = reject;
        }),
    ),
    cancelSignIn: vi.fn(async () => true),
    signInWithToken: vi.fn(async () => ada),
  };
  return { api, answer: (i: IdentityInfo) => answer(i), fail: (e: unknown) => fail(e) };
}

async function startWaiting() {
  const browser = waitingBrowser();
  const onSignedIn = vi.fn();
  render(SignInForm, { api: browser.api, defaultBaseUrl: 'http://127.0.0.1:9', onSignedIn });
  await userEvent.click(screen.getByTestId('signin-browser'));
  // The way out is said, not only bound to a key.
  expect(await screen.findByTestId('signin-waiting')).toHaveTextContent('press Escape or Cancel');
  return { ...browser, onSignedIn };
}

function expectBackToTheChoices() {
  expect(screen.queryByTestId('signin-waiting')).toBeNull();
  expect(screen.queryByTestId('signin-cancel')).toBeNull();
  expect(screen.getByTestId('signin-browser')).toBeEnabled();
  expect(screen.getByTestId('signin-notice')).toHaveTextContent('Sign-in cancelled.');
  expect(screen.queryByRole('alert')).toBeNull();
}

describe('Sign-in form, waiting for the browser', () => {
  it('offers Cancel with the keyboard on it, and Cancel stops the wait at once', async () => {
    const { api, answer, onSignedIn } = await startWaiting();
    const cancel = screen.getByTestId('signin-cancel');
    expect(cancel).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(api.cancelSignIn).toHaveBeenCalledTimes(1);
    expectBackToTheChoices();
    expect(screen.getByTestId('signin-browser')).toHaveFocus();
    // The stopped attempt's answer, should one still come, signs nobody in.
    answer(ada);
    await Promise.resolve();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('Escape cancels too', async () => {
    const { api } = await startWaiting();
    await userEvent.keyboard('{Escape}');
    expect(api.cancelSignIn).toHaveBeenCalledTimes(1);
    expectBackToTheChoices();
  });

  it('a wait stopped elsewhere ends with the same plain words, not an alarm', async () => {
    const { fail } = await startWaiting();
    fail(new ApiError({ code: 'sign_in_stopped', title: 'Sign-in cancelled', detail: 'Sign-in cancelled.', retryAt: null, action: null }));
    await waitFor(() => expectBackToTheChoices());
  });

  it('leaving the form while waiting stops the wait', async () => {
    const browser = waitingBrowser();
    const { unmount } = render(SignInForm, { api: browser.api, defaultBaseUrl: 'http://127.0.0.1:9', onSignedIn: () => {} });
    await userEvent.click(screen.getByTestId('signin-browser'));
    unmount();
    expect(browser.api.cancelSignIn).toHaveBeenCalledTimes(1);
  });
});
