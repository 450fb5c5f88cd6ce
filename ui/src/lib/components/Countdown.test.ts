import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import Countdown from './Countdown.svelte';

afterEach(() => vi.useRealTimers());

describe('Countdown', () => {
  it('measures a new deadline against the clock now, not at the last tick', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    const { rerender } = render(Countdown, { until: 1_000_000 + 30_000 });
    expect(screen.getByTestId('countdown').textContent).toBe('30 sec');
    // 900 ms later (before the next tick) the deadline moves to 30 s from now.
    vi.setSystemTime(1_000_900);
    await rerender({ until: 1_000_900 + 30_000 });
    expect(screen.getByTestId('countdown').textContent).toBe('30 sec');
  });

  it('counts down on each tick', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(2_000_000);
    render(Countdown, { until: 2_000_000 + 65_000 });
    expect(screen.getByTestId('countdown').textContent).toBe('1 min 05 sec');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(screen.getByTestId('countdown').textContent).toBe('1 min 00 sec');
  });
});
