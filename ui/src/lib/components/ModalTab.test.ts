// Tab and Shift+Tab go round the dialog's controls a person can reach, never out of it; the
// focus starts on its content, also when that content comes after the dialog opens.
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import DetailsDialog from '../../tests/DetailsDialog.svelte';
import LoadingDialog from '../../tests/LoadingDialog.svelte';

describe('a dialog with a folded part', () => {
  it('wraps Tab round from the summary of a closed <details>, the last control shown', async () => {
    render(DetailsDialog);
    const summary = screen.getByTestId('summary');
    summary.focus();
    await userEvent.tab();
    expect(document.activeElement).not.toBe(screen.getByTestId('folded'));
    expect(screen.getByTestId('details-dialog').contains(document.activeElement)).toBe(true);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(summary);
  });
});

describe('a dialog whose content comes after it opens', () => {
  it('gives the focus to its content once there, from ×, which had it while loading', async () => {
    const { rerender } = render(LoadingDialog);
    expect(screen.getByTestId('close')).toHaveFocus();
    await rerender({ loaded: true });
    await waitFor(() => expect(screen.getByTestId('field')).toHaveFocus());
  });

  it('leaves the focus where the person moved it meanwhile', async () => {
    const { rerender } = render(LoadingDialog);
    const close = screen.getByTestId('close');
    close.blur();
    await rerender({ loaded: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByTestId('field')).not.toHaveFocus();
  });
});
