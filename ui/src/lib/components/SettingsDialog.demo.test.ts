// "Reset the Demo" in Settings: only on the Demo, behind a confirmation that says what goes,
// with the focus on the safe answer; the Demo is reset only once the person confirms.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import SettingsDialog from './SettingsDialog.svelte';

const base = { developerTools: false, onchange: () => {}, onclose: () => {} };

describe('Reset the Demo', () => {
  it('is not offered away from the Demo', () => {
    render(SettingsDialog, { ...base, onresetdemo: null });
    expect(screen.queryByTestId('demo-reset')).toBeNull();
  });

  it('says what goes, keeps the focus on "Keep it", and resets only when confirmed', async () => {
    const onresetdemo = vi.fn(async () => true);
    render(SettingsDialog, { ...base, onresetdemo });
    await userEvent.click(screen.getByTestId('demo-reset'));
    const confirm = screen.getByTestId('demo-reset-confirm');
    expect(confirm.textContent).toContain('come back fresh');
    expect(confirm.textContent).toContain('removed');
    expect(screen.getByTestId('demo-reset-no')).toHaveFocus();

    await userEvent.click(screen.getByTestId('demo-reset-no'));
    expect(onresetdemo).not.toHaveBeenCalled();
    expect(screen.queryByTestId('demo-reset-confirm')).toBeNull();

    await userEvent.click(screen.getByTestId('demo-reset'));
    await userEvent.click(screen.getByTestId('demo-reset-yes'));
    expect(onresetdemo).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getByTestId('demo-reset-done')).toBeInTheDocument());
  });

  it('says so when the reset failed', async () => {
    render(SettingsDialog, { ...base, onresetdemo: async () => false });
    await userEvent.click(screen.getByTestId('demo-reset'));
    await userEvent.click(screen.getByTestId('demo-reset-yes'));
    await waitFor(() => expect(screen.queryByTestId('demo-reset-confirm')).toBeNull());
    expect(screen.queryByTestId('demo-reset-done')).toBeNull();
    expect(screen.getByTestId('demo-reset-failed').textContent).toContain('could not be reset');
  });
});
