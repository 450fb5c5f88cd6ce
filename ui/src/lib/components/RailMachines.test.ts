import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import RailMachines from './RailMachines.svelte';
import { AppState } from '../app.svelte';
import { fakeApi, machine } from '../../tests/fake-api';

describe('RailMachines', () => {
  it('shows each computer by its initial with its name and state, the chosen one current, and chooses another in one click', async () => {
    const api = fakeApi({
      listMachines: async () => [
        machine(),
        machine({ machineId: 'm2', name: 'research box', availability: 'asleep', canWake: true }),
      ],
    });
    const app = new AppState(api);
    app.machines = await api.listMachines();
    app.selectedMachineId = 'm1';
    render(RailMachines, { app });
    const buttons = screen.getAllByTestId('rail-machine');
    expect(buttons.map((b) => b.textContent?.trim())).toEqual(['D', 'R']);
    expect(buttons[0].getAttribute('aria-label')).toBe('Design laptop · Online');
    expect(buttons[1].getAttribute('aria-label')).toMatch(/^research box · /);
    expect(buttons[0].getAttribute('aria-current')).toBe('true');
    expect(buttons[1].getAttribute('aria-current')).toBeNull();
    await userEvent.click(buttons[1]);
    await waitFor(() => expect(app.selectedMachineId).toBe('m2'));
    expect(buttons[1].getAttribute('aria-current')).toBe('true');
  });
});
