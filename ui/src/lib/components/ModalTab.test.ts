// Tab and Shift+Tab go round the dialog's controls a person can reach, never out of it.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import DetailsDialog from '../../tests/DetailsDialog.svelte';

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
