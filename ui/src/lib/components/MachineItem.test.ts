import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import MachineItem from './MachineItem.svelte';
import { machine } from '../../tests/fake-api';

describe('MachineItem', () => {
  it('offers Wake on an asleep computer', async () => {
    const onWake = vi.fn();
    render(MachineItem, {
      machine: machine({ availability: 'asleep', canWake: true, name: 'Research box' }),
      selected: false, onSelect: () => {}, onWake,
    });
    expect(screen.getByTestId('machine-status')).toHaveTextContent('Asleep');
    await userEvent.click(screen.getByTestId('wake-button'));
    expect(onWake).toHaveBeenCalled();
  });

  it('has no Wake on an online computer', () => {
    render(MachineItem, { machine: machine(), selected: true, onSelect: () => {}, onWake: () => {} });
    expect(screen.queryByTestId('wake-button')).toBeNull();
    expect(screen.getByTestId('machine-kind')).toHaveTextContent('Cloud computer');
  });

  it('explains the free computer and shows progress while it starts', () => {
    const free = machine({ machineId: 'free-u', freeComputer: true, availability: 'freeReady', updatedAt: null });
    const { unmount } = render(MachineItem, { machine: free, selected: false, onSelect: () => {}, onWake: () => {} });
    expect(screen.getByTestId('free-computer-hint')).toHaveTextContent('about two minutes');
    unmount();
    render(MachineItem, {
      machine: { ...free, availability: 'starting', startingSince: Date.now() - 60_000 },
      selected: false, onSelect: () => {}, onWake: () => {},
    });
    const bar = screen.getByTestId('machine-starting-progress');
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(45);
  });

  it('says a sleeping computer is waking, and about how long it takes', () => {
    render(MachineItem, {
      machine: machine({ name: 'Research box', availability: 'starting', startingSince: Date.now() - 1_000 }),
      selected: false, onSelect: () => {}, onWake: () => {},
    });
    expect(screen.getByTestId('machine-status')).toHaveTextContent('Waking up…');
    expect(screen.getByTestId('machine-starting')).toHaveTextContent('Waking Research box, about a minute');
  });

  it('says a computer that cannot be woken from here so, with no Wake button', () => {
    render(MachineItem, {
      machine: machine({ name: 'Studio archive', availability: 'asleep', canWake: false }),
      selected: false, onSelect: () => {}, onWake: () => {},
    });
    expect(screen.queryByTestId('wake-button')).toBeNull();
    expect(screen.getByTestId('machine-cannot-wake')).toHaveTextContent('Can’t be woken from here');
  });

  it('shows a computer on its way to sleep as such', () => {
    render(MachineItem, {
      machine: machine({ availability: 'goingToSleep', canWake: true }),
      selected: false, onSelect: () => {}, onWake: () => {},
    });
    expect(screen.getByTestId('machine-status')).toHaveTextContent('Going to sleep');
    expect(screen.queryByTestId('wake-button')).toBeNull();
  });
});
