import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import NewComputer from './NewComputer.svelte';
import { ApiError } from '../../ui-error';

describe('New computer', () => {
  it('offers the web portal as a link when the service makes computers only there', async () => {
    const portal = 'https://portal.example/computers/new';
    const api = {
      createComputer: vi.fn(async () => {
        throw new ApiError({ code: 'create_on_portal', title: 'Make the computer on the web portal', detail: 'The service makes new computers only on its web portal.', retryAt: null, action: null, link: portal });
      }),
    };
    render(NewComputer, { api });
    await userEvent.click(screen.getByTestId('computer-create'));
    expect(await screen.findByTestId('computer-error')).toHaveTextContent('Make the computer on the web portal');
    const link = screen.getByTestId('computer-error-link');
    expect(link).toHaveAttribute('href', portal);
    expect(link).toHaveTextContent('Open in your browser');
  });

  it('offers no link when the service names no page', async () => {
    const api = {
      createComputer: vi.fn(async () => {
        throw new ApiError({ code: 'sign_in_needed', title: 'Sign in to your account', detail: 'Making computers needs you to sign in.', retryAt: null, action: 'signIn' });
      }),
    };
    render(NewComputer, { api });
    await userEvent.click(screen.getByTestId('computer-create'));
    expect(await screen.findByTestId('computer-error')).toHaveTextContent('Sign in to your account');
    expect(screen.queryByTestId('computer-error-link')).toBeNull();
  });
});
