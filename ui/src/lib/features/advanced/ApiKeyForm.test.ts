import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ApiKeyForm from './ApiKeyForm.svelte';
import { AppState } from '../../app.svelte';
import { ApiError } from '../../ui-error';
import { fakeApi, uiError } from '../../../tests/fake-api';

describe('ApiKeyForm', () => {
  it('says where a key comes from, and its link asks Rust to open the portal', async () => {
    const openKeyPortal = vi.fn(async () => null);
    const state = new AppState(fakeApi({ openKeyPortal }));
    render(ApiKeyForm, { app: state });
    const link = screen.getByTestId('connect-portal-link');
    expect(link).toHaveTextContent('Where do I get an API key?');
    expect(link.closest('p')).toHaveTextContent('sai.work');
    await userEvent.click(link);
    expect(openKeyPortal).toHaveBeenCalledTimes(1);
    // The link never sends the form.
    expect(state.busy).toBe(false);
  });

  it('shows why a key was refused and stays open', async () => {
    const api = fakeApi({
      connectAccount: async () => {
        throw new ApiError(uiError());
      },
    });
    const state = new AppState(api);
    state.connectOpen = true;
    render(ApiKeyForm, { app: state });
    await userEvent.type(screen.getByTestId('connect-base-url'), 'https://svc.example');
    await userEvent.type(screen.getByTestId('connect-api-key'), 'wrong');
    await userEvent.click(screen.getByTestId('connect-submit'));
    await waitFor(() => expect(screen.getByTestId('connect-error')).toHaveTextContent('Your key was not accepted'));
    expect(state.connectOpen).toBe(true);
  });

  it('sends the version tag from Advanced with the address and key, and none when left empty', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.connectOpen = true;
    render(ApiKeyForm, { app: state });
    await userEvent.type(screen.getByTestId('connect-base-url'), 'https://svc.example');
    await userEvent.type(screen.getByTestId('connect-api-key'), 'sapi_1');
    await userEvent.click(screen.getByText('Service version'));
    await userEvent.type(screen.getByTestId('connect-version-tag'), ' rev-42 ');
    await userEvent.click(screen.getByTestId('connect-submit'));
    await waitFor(() => expect(api.connectAccount).toHaveBeenCalledWith('https://svc.example', 'sapi_1', 'rev-42'));
    // Connecting ends with the new account's computers listed and one chosen; the form can be
    // sent again once that is done.
    await waitFor(() => expect(state.busy).toBe(false));

    await userEvent.clear(screen.getByTestId('connect-version-tag'));
    await userEvent.type(screen.getByTestId('connect-api-key'), 'sapi_2');
    await userEvent.click(screen.getByTestId('connect-submit'));
    await waitFor(() => expect(api.connectAccount).toHaveBeenLastCalledWith('https://svc.example', 'sapi_2', null));
  });

  it('under the sign-in form, uses the service address typed there instead of asking again', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    render(ApiKeyForm, { app: state, address: ' https://svc.example ' });
    expect(screen.queryByTestId('connect-base-url')).toBeNull();
    await userEvent.type(screen.getByTestId('connect-api-key'), 'sapi_1');
    await userEvent.click(screen.getByTestId('connect-submit'));
    await waitFor(() => expect(api.connectAccount).toHaveBeenCalledWith('https://svc.example', 'sapi_1', null));
  });

  it('cannot connect before an address is typed above', () => {
    render(ApiKeyForm, { app: new AppState(fakeApi()), address: '' });
    expect(screen.getByTestId('connect-submit')).toBeDisabled();
  });
});
