import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import KeysPage from './KeysPage.svelte';
import { ApiError } from '../../ui-error';
import type { IdentityInfo, KeyRecord } from '../../api';

const ada: IdentityInfo = { baseUrl: 'http://127.0.0.1:9', displayName: 'Ada', demo: false };
const key = (keyId: string, name: string | null): KeyRecord => ({ keyId, name, createdAt: Date.now() - 60_000, lastUsedAt: null });

function fake(over: Record<string, unknown> = {}) {
  let keys = [key('k_1', 'laptop')];
  return {
    identityInfo: vi.fn(async () => ada as IdentityInfo | null),
    browserSignInReady: vi.fn(async () => 'ready' as const),
    signInWithBrowser: vi.fn(async () => ada),
    cancelSignIn: vi.fn(async () => true),
    signInWithToken: vi.fn(async () => ada),
    forgetSignIn: vi.fn(async () => null),
    listKeys: vi.fn(async () => ({ identity: ada, keys })),
    createKey: vi.fn(async (name: string | null) => {
      keys = [key('k_2', name), ...keys];
      return { keyId: 'k_2', name, secret: 'phk_live_secret', canUseInPorthole: true };
    }),
    useNewKey: vi.fn(async () => null),
    closeNewKey: vi.fn(async () => {}),
    revokeKey: vi.fn(async (id: string) => {
      keys = keys.filter((k) => k.keyId !== id);
      return null;
    }),
    createComputer: vi.fn(async () => 'm_new'),
    signInAddress: vi.fn(async () => null as string | null),
    ...over,
  };
}

/** "Sign in with Google", once Rust has said it can work at the address. */
async function googleButton() {
  const button = await screen.findByTestId('signin-browser');
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}

describe('Keys page', () => {
  it('asks to sign in when nobody is, by browser or pasted token', async () => {
    const api = fake({ identityInfo: vi.fn().mockResolvedValueOnce(null).mockResolvedValue(ada) });
    render(KeysPage, { api, defaultBaseUrl: 'http://127.0.0.1:9', onClose: () => {} });
    await userEvent.click(await googleButton());
    expect(api.signInWithBrowser).toHaveBeenCalledWith('http://127.0.0.1:9');
    expect(await screen.findByTestId('keys-identity')).toHaveTextContent('Signed in as Ada');
  });

  it('on the Demo, signing in connects Porthole to the account, and a failure says why with a retry', async () => {
    const demo: IdentityInfo = { baseUrl: 'http://127.0.0.1:9', displayName: 'Ada', demo: true };
    const api = fake({
      identityInfo: vi.fn().mockResolvedValueOnce(demo).mockResolvedValue(ada),
      signInAddress: vi.fn(async () => 'https://svc.example'),
    });
    const limit = { code: 'signed_in_key_limit', title: 'You are signed in, but Porthole could not connect', detail: 'Revoke a key.', action: 'retry', retryAt: null };
    const onConnect = vi.fn().mockResolvedValueOnce(limit).mockResolvedValue(null);
    render(KeysPage, { api, onDemo: true, onConnect, onClose: () => {} });
    expect(await screen.findByTestId('account-demo-intro')).toHaveTextContent('practice computers');
    // The known address is under Advanced, not in the way.
    expect(screen.getByTestId('signin-base-url')).not.toBeVisible();
    await userEvent.click(await googleButton());
    expect(api.signInWithBrowser).toHaveBeenCalledWith('https://svc.example');
    expect(await screen.findByTestId('account-connect-error')).toHaveTextContent('could not connect');
    expect(onConnect).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByTestId('account-connect-button'));
    expect(onConnect).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.queryByTestId('account-connect-error')).toBeNull());
  });

  it('shows a new key once, with Copy and Use in Porthole, then forgets it', async () => {
    const api = fake();
    render(KeysPage, { api, defaultBaseUrl: '', onClose: () => {} });
    await userEvent.type(await screen.findByTestId('key-name'), 'home');
    await userEvent.click(screen.getByTestId('key-create'));
    const secret = (await screen.findByTestId('new-key-secret')) as HTMLInputElement;
    expect(secret.value).toBe('phk_live_secret');
    expect(screen.getByTestId('new-key-use')).toBeInTheDocument();
    expect(api.createKey).toHaveBeenCalledWith('home');
    await waitFor(() => expect(screen.getAllByTestId('key-row')).toHaveLength(2));
    await userEvent.click(screen.getByTestId('new-key-done'));
    expect(api.closeNewKey).toHaveBeenCalled();
    expect(screen.queryByTestId('new-key-secret')).toBeNull();
    expect(document.body.textContent).not.toContain('phk_live_secret');
  });

  it('lists keys the service sent twice with the same id, rather than failing', async () => {
    const twice = [key('k_1', 'laptop'), key('k_1', 'laptop')];
    const api = fake({ listKeys: vi.fn(async () => ({ identity: ada, keys: twice })) });
    render(KeysPage, { api, defaultBaseUrl: '', onClose: () => {} });
    await waitFor(() => expect(screen.getAllByTestId('key-row')).toHaveLength(2));
  });

  it('revokes only after confirmation', async () => {
    const api = fake();
    render(KeysPage, { api, defaultBaseUrl: '', onClose: () => {} });
    const row = await screen.findByTestId('key-row');
    await userEvent.click(within(row).getByTestId('key-revoke'));
    // The warning is a row of its own across the table (not squeezed into the buttons'
    // cell), right under the key it is about, with the focus on the safe answer.
    const confirm = screen.getByTestId('revoke-confirm');
    const confirmRow = confirm.closest('tr')!;
    expect(confirmRow).not.toBe(row);
    expect(confirmRow.previousElementSibling).toBe(row);
    expect(confirm.closest('td')).toHaveAttribute('colspan', '4');
    expect(confirm).toHaveTextContent('Programs using it will stop working');
    expect(screen.getByTestId('revoke-no')).toHaveFocus();
    await userEvent.click(screen.getByTestId('revoke-no'));
    expect(screen.queryByTestId('revoke-confirm')).toBeNull();
    expect(api.revokeKey).not.toHaveBeenCalled();
    await userEvent.click(within(screen.getByTestId('key-row')).getByTestId('key-revoke'));
    await userEvent.click(screen.getByTestId('revoke-yes'));
    expect(api.revokeKey).toHaveBeenCalledWith('k_1');
    expect(await screen.findByTestId('keys-empty')).toBeInTheDocument();
  });

  it('limits names to 100 characters and words the service refusals', async () => {
    const api = fake({
      createKey: vi.fn(async () => {
        throw new ApiError({ code: 'phone_verification_required', title: 'Verify your phone first', detail: 'Free accounts need a verified phone number to make a key.', retryAt: null, action: 'signIn' });
      }),
    });
    render(KeysPage, { api, defaultBaseUrl: '', onClose: () => {} });
    const name = await screen.findByTestId('key-name');
    await userEvent.click(name);
    await userEvent.paste('x'.repeat(101));
    expect(screen.getByTestId('key-name-too-long')).toBeInTheDocument();
    expect(screen.getByTestId('key-create')).toBeDisabled();
    await userEvent.clear(name);
    await userEvent.click(screen.getByTestId('key-create'));
    expect(await screen.findByTestId('keys-error')).toHaveTextContent('Verify your phone first');
  });

  it('offers to sign in again when the sign-in has expired', async () => {
    const api = fake({
      listKeys: vi.fn(async () => {
        throw new ApiError({ code: 'sign_in_needed', title: 'Sign in again', detail: 'Your sign-in may have expired.', retryAt: null, action: 'signIn' });
      }),
    });
    render(KeysPage, { api, defaultBaseUrl: 'http://127.0.0.1:9', onClose: () => {} });
    expect(await screen.findByTestId('signin-form')).toBeInTheDocument();
    expect(screen.getByTestId('keys-error')).toHaveTextContent('Sign in again');
  });

  it('asks to sign in again when Porthole finds the sign-in ran out before making a key', async () => {
    const api = fake({
      createKey: vi.fn(async () => {
        throw new ApiError({ code: 'sign_in_expired', title: 'Sign in again', detail: 'Your sign-in has expired, so Porthole did not use it.', retryAt: null, action: 'signIn' });
      }),
    });
    render(KeysPage, { api, defaultBaseUrl: 'http://127.0.0.1:9', onClose: () => {} });
    await userEvent.click(await screen.findByTestId('key-create'));
    expect(await screen.findByTestId('signin-form')).toBeInTheDocument();
    expect(screen.getByTestId('keys-error')).toHaveTextContent('Your sign-in has expired');
  });

  it('keeps "Use an API key instead / Advanced" open while the service address is typed', async () => {
    const demo: IdentityInfo = { baseUrl: 'http://127.0.0.1:9', displayName: 'Ada', demo: true };
    const api = fake({ identityInfo: vi.fn(async () => demo) });
    render(KeysPage, { api, onDemo: true, onClose: () => {} });
    await userEvent.click(await screen.findByTestId('account-advanced-toggle'));
    const advanced = screen.getByTestId('account-advanced') as HTMLDetailsElement;
    expect(advanced.open).toBe(true);
    await userEvent.type(screen.getByTestId('signin-base-url'), 'https://svc.example');
    expect(advanced.open).toBe(true);
  });
});
