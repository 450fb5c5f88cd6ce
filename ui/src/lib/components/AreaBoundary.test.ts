import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import BoundaryHarness from '../../tests/BoundaryHarness.svelte';

describe('AreaBoundary', () => {
  it('shows a sentence in the area that failed, keeps the rest, and draws again on Try again', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = { now: true };
    render(BoundaryHarness, { broken });
    await tick();
    const failed = screen.getByTestId('task-area-failed');
    expect(failed.textContent).toContain('This part of the window stopped working');
    expect(screen.queryByTestId('area-content')).toBeNull();
    expect(screen.getByTestId('elsewhere').textContent).toBe('The sidebar');

    broken.now = false;
    await fireEvent.click(screen.getByTestId('task-area-retry'));
    await tick();
    expect(screen.getByTestId('area-content').textContent).toBe('The thread');
    expect(screen.queryByTestId('task-area-failed')).toBeNull();
    quiet.mockRestore();
  });
});
