import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import Splitter from './Splitter.svelte';

describe('Splitter', () => {
  it('is a focusable separator that the arrow keys move within its range', async () => {
    const onchange = vi.fn();
    const oncommit = vi.fn();
    render(Splitter, {
      value: 0.4, min: 0.2, max: 0.75, label: 'Width', controls: 'col', onchange, oncommit,
    });
    const bar = screen.getByRole('separator');
    expect(bar).toHaveAttribute('tabindex', '0');
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(bar).toHaveAttribute('aria-valuemin', '20');
    expect(bar).toHaveAttribute('aria-valuemax', '75');
    expect(bar).toHaveAttribute('aria-orientation', 'vertical');

    await fireEvent.keyDown(bar, { key: 'ArrowRight' });
    expect(onchange).toHaveBeenLastCalledWith(expect.closeTo(0.42, 5));
    expect(oncommit).toHaveBeenLastCalledWith(expect.closeTo(0.42, 5));
    await fireEvent.keyDown(bar, { key: 'End' });
    expect(oncommit).toHaveBeenLastCalledWith(0.75);
    await fireEvent.keyDown(bar, { key: 'Home' });
    expect(oncommit).toHaveBeenLastCalledWith(0.2);
    // A key it does not use is left alone.
    await fireEvent.keyDown(bar, { key: 'a' });
    expect(oncommit).toHaveBeenCalledTimes(3);
  });
});
