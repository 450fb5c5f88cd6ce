import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import AccountPanel from './AccountPanel.svelte';
import { AppState } from '../app.svelte';
import { fakeApi } from '../../tests/fake-api';
import type { Account } from '../api';

function withAccount(account: Account) {
  const state = new AppState(fakeApi());
  state.account = account;
  state.connection = { mode: 'demo', state: 'ready', baseUrl: null, userId: 'u', hasSavedAccount: false, error: null };
  render(AccountPanel, { app: state });
}

const base: Account = {
  userId: 'u', userState: 'active', plan: { id: 'pro', title: 'Pro', free: false, unlimited: false },
  credits: { usd: 12.5 }, authType: 'apiKey',
};

describe('AccountPanel', () => {
  it('shows the plan and credits in dollars', () => {
    withAccount(base);
    expect(screen.getByTestId('account-plan')).toHaveTextContent('Pro');
    expect(screen.getByTestId('account-credits')).toHaveTextContent('$12.50 left');
    // On the Demo, one way into the account: Sign in.
    expect(screen.getByTestId('open-keys')).toHaveTextContent('Sign in');
  });

  it('says unlimited', () => {
    withAccount({ ...base, plan: { ...base.plan, unlimited: true }, credits: { usd: null } });
    expect(screen.getByTestId('account-credits')).toHaveTextContent('Unlimited');
  });

  it('says when billing cannot be reached', () => {
    withAccount({ ...base, credits: null });
    expect(screen.getByTestId('account-credits')).toHaveTextContent('Billing unavailable right now');
  });

  it('names the signed-in person, not the service address', async () => {
    const api = fakeApi({
      identityInfo: async () => ({ baseUrl: 'https://svc.example', displayName: 'ulla', demo: false }),
    });
    const state = new AppState(api);
    state.account = base;
    state.connection = { mode: 'account', state: 'ready', baseUrl: 'https://svc.example', userId: 'u', hasSavedAccount: true, error: null };
    render(AccountPanel, { app: state });
    expect(await screen.findByText('Signed in as ulla')).toBeInTheDocument();
    expect(screen.getByTestId('account-where')).not.toHaveTextContent('https://');
    expect(screen.getByTestId('open-keys')).toHaveTextContent('Account');
  });
});
