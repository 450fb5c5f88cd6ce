import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import SignInForm from './SignInForm.svelte';
import { ApiError } from '../../ui-error';
import type { BrowserSignIn, IdentityInfo } from '../../api';
import { speak } from '../../i18n';

const ada: IdentityInfo = { baseUrl: 'http://127.0.0.1:9', displayName: 'Ada', demo: false };

/** A browser that has not come back yet: the test decides when (and whether) it does. */
function waitingBrowser() {
  let answer!: (identity: IdentityInfo) => void;
  let fail!: (e: unknown) => void;
  const api = {
    browserSignInReady: vi.fn(async (): Promise<BrowserSignIn> => 'ready'),
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

/** The Google button, once Rust has said it can work here. */
async function ready() {
  const button = await screen.findByTestId('signin-browser');
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}

async function startWaiting() {
  const browser = waitingBrowser();
  const onSignedIn = vi.fn();
  render(SignInForm, { api: browser.api, defaultBaseUrl: 'http://127.0.0.1:9', onSignedIn });
  await userEvent.click(await ready());
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
    await userEvent.click(await ready());
    unmount();
    expect(browser.api.cancelSignIn).toHaveBeenCalledTimes(1);
  });
});

describe('Sign-in form, in a copy built without Google sign-in', () => {
  afterEach(() => speak('en'));

  function unconfigured() {
    const api = { ...waitingBrowser().api, browserSignInReady: vi.fn(async (): Promise<BrowserSignIn> => 'notBuilt') };
    render(SignInForm, { api, defaultBaseUrl: 'https://svc.example', onSignedIn: () => {} });
    return api;
  }

  it('says so instead of showing a button that cannot work, with the ways that do open', async () => {
    const api = unconfigured();
    const said = await screen.findByTestId('signin-not-configured');
    expect(said).toHaveTextContent(
      "This copy of Porthole was built without Google sign-in, so it can't sign you in here. Connect with an API key instead, or paste a sign-in token.",
    );
    expect(api.browserSignInReady).toHaveBeenCalledWith('https://svc.example');
    expect(screen.queryByTestId('signin-browser')).toBeNull();
    expect(screen.queryByRole('button', { name: /Google/ })).toBeNull();
    expect(screen.getByTestId('signin-token')).toBeVisible();
    expect(screen.getByTestId('account-advanced')).toHaveAttribute('open');
  });

  it('says it in German too', async () => {
    speak('de');
    unconfigured();
    expect(await screen.findByTestId('signin-not-configured')).toHaveTextContent('ohne Google-Anmeldung gebaut');
  });

  it('the button reads "Sign in with Google" where it can work', async () => {
    render(SignInForm, { api: waitingBrowser().api, defaultBaseUrl: 'http://127.0.0.1:9', onSignedIn: () => {} });
    expect(await ready()).toHaveTextContent('Sign in with Google');
    expect(screen.queryByTestId('signin-not-configured')).toBeNull();
  });
});

describe('Sign-in form, at an address typed by hand', () => {
  afterEach(() => speak('en'));

  it('offers no Google sign-in there and says why, with the API key open', async () => {
    const api = { ...waitingBrowser().api, browserSignInReady: vi.fn(async (): Promise<BrowserSignIn> => 'notHere') };
    render(SignInForm, { api, defaultBaseUrl: 'https://api.sai.simular.ai.example.com', onSignedIn: () => {} });
    const said = await screen.findByTestId('signin-not-here');
    expect(said).toHaveTextContent("Google sign-in goes only to the service's own address");
    expect(said).toHaveTextContent('connect with an API key');
    expect(screen.queryByTestId('signin-browser')).toBeNull();
    expect(screen.queryByTestId('signin-not-configured')).toBeNull();
    expect(screen.getByTestId('account-advanced')).toHaveAttribute('open');
    speak('de');
    expect(await screen.findByTestId('signin-not-here')).toHaveTextContent('nie an eine von Hand eingegebene');
  });

  it('goes back to the usual address in one click, where Google sign-in works again', async () => {
    const usual = 'https://api.sai.simular.ai';
    const api = {
      ...waitingBrowser().api,
      browserSignInReady: vi.fn(async (address: string): Promise<BrowserSignIn> => (address === usual ? 'ready' : 'notHere')),
    };
    render(SignInForm, { api, defaultBaseUrl: usual, onSignedIn: () => {} });
    await ready();
    expect(screen.queryByTestId('signin-default-address')).toBeNull();
    const address = screen.getByTestId('signin-base-url');
    await userEvent.clear(address);
    await userEvent.type(address, 'https://my-own.example.com');
    expect(await screen.findByTestId('signin-not-here')).toBeInTheDocument();
    const back = screen.getByTestId('signin-default-address');
    expect(back).toHaveTextContent(`Use the usual address again (${usual})`);
    await userEvent.click(back);
    expect(address).toHaveValue(usual);
    await ready();
    expect(screen.queryByTestId('signin-default-address')).toBeNull();
    // No programmer's word anywhere in the form.
    const words = screen.getByTestId('signin-form').textContent ?? '';
    for (const jargon of ['undefined', 'null', 'NaN', 'base_url', 'baseUrl', 'http_', 'Error:', '{']) {
      expect(words).not.toContain(jargon);
    }
  });
});
