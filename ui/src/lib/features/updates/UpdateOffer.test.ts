import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import UpdateOffer from './UpdateOffer.svelte';
import type { UpdateStatus } from '../../api';
import type { UpdatesApi } from './updates';

function fake(first: UpdateStatus, afterInstall: UpdateStatus = first) {
  let changed: (() => void) | undefined;
  const updates = {
    updateStatus: vi.fn(async () => first),
    installUpdate: vi.fn(async () => afterInstall),
    dismissUpdate: vi.fn(async (): Promise<UpdateStatus> => ({ state: 'none' })),
    onUpdateStatusChanged: vi.fn(async (cb: () => void) => {
      changed = cb;
      return () => {};
    }),
  };
  return { updates: updates as unknown as UpdatesApi, mock: updates, fire: () => changed?.() };
}

describe('Update offer', () => {
  it('says nothing when there is no update', async () => {
    const { updates, mock } = fake({ state: 'none' });
    render(UpdateOffer, { updates });
    await waitFor(() => expect(mock.updateStatus).toHaveBeenCalled());
    expect(screen.queryByTestId('update-offer')).toBeNull();
  });

  it('offers a verified version in plain words, and Later puts it away', async () => {
    const { updates, mock } = fake({ state: 'available', version: '0.2.0' });
    render(UpdateOffer, { updates });
    const offer = await screen.findByTestId('update-offer');
    expect(offer.textContent).toContain('Porthole 0.2.0 is available');
    expect(screen.getByTestId('update-install').textContent).toContain('Install and restart');
    await userEvent.click(screen.getByTestId('update-later'));
    expect(mock.dismissUpdate).toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByTestId('update-offer')).toBeNull());
  });

  it('says a failed install in a sentence and offers to try again', async () => {
    const { updates, mock } = fake(
      { state: 'available', version: '0.2.0' },
      { state: 'installFailed', version: '0.2.0' },
    );
    render(UpdateOffer, { updates });
    await userEvent.click(await screen.findByTestId('update-install'));
    expect(mock.installUpdate).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(screen.getByTestId('update-offer').textContent).toContain('Porthole 0.2.0 could not be installed.'),
    );
    expect(screen.getByTestId('update-install').textContent).toContain('Try again');
  });

  it('keeps the keyboard on Install while it installs, and a second Enter installs nothing twice', async () => {
    const { updates, mock } = fake({ state: 'available', version: '0.2.0' });
    let finish: (s: UpdateStatus) => void = () => {};
    mock.installUpdate.mockReturnValue(new Promise((r) => (finish = r)));
    render(UpdateOffer, { updates });
    (await screen.findByTestId('update-install')).focus();
    await userEvent.keyboard('{Enter}');
    const install = screen.getByTestId('update-install');
    expect(install.textContent).toContain('Installing…');
    expect(install).toHaveAttribute('aria-disabled', 'true');
    expect(install).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(mock.installUpdate).toHaveBeenCalledTimes(1);
    finish({ state: 'installFailed', version: '0.2.0' });
    await waitFor(() => expect(install.textContent).toContain('Try again'));
    expect(install).toHaveFocus();
  });

  it('says an unverified update was not installed and offers no Install button', async () => {
    const { updates, mock, fire } = fake({ state: 'none' });
    render(UpdateOffer, { updates });
    await waitFor(() => expect(mock.onUpdateStatusChanged).toHaveBeenCalled());
    mock.updateStatus.mockResolvedValue({ state: 'unverified', version: '0.2.0' });
    fire();
    const said = await screen.findByTestId('update-offer');
    expect(said.textContent).toContain('This update could not be verified, so it was not installed.');
    expect(screen.queryByTestId('update-install')).toBeNull();
    expect(screen.getByTestId('update-later').textContent).toContain('OK');
  });
});
