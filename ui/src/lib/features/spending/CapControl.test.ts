import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Composer from '../../components/Composer.svelte';
import { AppState } from '../../app.svelte';
import { conversation, fakeApi, machine } from '../../../tests/fake-api';
import type { Api } from '../../api';
import { ComposerCap, composerCap, parseCap } from './cap.svelte';

function setup(over: Partial<Api> = {}, running = false) {
  const api = fakeApi(over);
  const state = new AppState(api);
  state.conversation = conversation(
    running ? { status: 'running', capUsd: 0.5, usage: { costUsd: 0.2 } as never } : {},
  );
  render(Composer, { app: state, machine: machine() });
  return { api, box: screen.getByTestId('composer') as HTMLTextAreaElement };
}

describe('the spending cap', () => {
  beforeEach(() => {
    composerCap.text = '';
    composerCap.defaultCap = null;
  });

  it('reads a sum of dollars and refuses anything else', () => {
    expect(parseCap('')).toBe(null);
    expect(parseCap(' 0.50 ')).toBe(0.5);
    expect(parseCap('$2')).toBe(2);
    expect(parseCap('0,75')).toBe(0.75);
    for (const bad of ['0', '0.001', '-1', 'abc', '1e3', '1.2.3', 'NaN']) expect(parseCap(bad)).toBe(undefined);
  });

  it('goes out with the task the message starts', async () => {
    const { api, box } = setup();
    // The cap is under the composer's "More options".
    await userEvent.click(screen.getByTestId('composer-more'));
    await userEvent.type(screen.getByTestId('cap-input'), '0.50');
    await userEvent.type(box, 'Find the weather{Enter}');
    await waitFor(() =>
      expect(api.sendMessage).toHaveBeenCalledWith(expect.objectContaining({ text: 'Find the weather', capUsd: 0.5 })),
    );
  });

  it('says in one line that a cap acts only while Porthole is open', async () => {
    setup();
    await userEvent.click(screen.getByTestId('composer-more'));
    expect(screen.queryByTestId('cap-while-open')).toBeNull();
    await userEvent.type(screen.getByTestId('cap-input'), '2');
    expect(screen.getByTestId('cap-while-open').textContent).toContain('while it is closed, it cannot');
  });

  it('a cap that is no sum of money says so and sends nothing', async () => {
    const { api, box } = setup();
    await userEvent.click(screen.getByTestId('composer-more'));
    await userEvent.type(screen.getByTestId('cap-input'), 'lots');
    expect(screen.getByTestId('cap-error').textContent).toContain('at least $0.01');
    await userEvent.type(box, 'Find the weather{Enter}');
    expect(screen.getByTestId('send-button')).toHaveProperty('disabled', true);
    expect(api.sendMessage).not.toHaveBeenCalled();
  });

  it('starts from the default in the settings, and keeps a new one', async () => {
    const cap = new ComposerCap();
    const api = fakeApi({ defaultCap: async () => 1.25 });
    await cap.load(api);
    expect(cap.text).toBe('1.25');
    cap.text = '3';
    await cap.makeDefault(api);
    expect(api.setDefaultCap).toHaveBeenCalledWith(3);
    expect(cap.defaultCap).toBe(3);
  });

  it('shows what a running task has cost against its cap', async () => {
    setup({}, true);
    expect((await screen.findByTestId('cap-meter')).textContent).toContain('$0.20 of $0.50 cap');
    expect(screen.queryByTestId('cap-input')).toBeNull();
  });
});
