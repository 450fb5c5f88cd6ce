import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import StuckCard from './StuckCard.svelte';
import Thread from './Thread.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi } from '../../tests/fake-api';
import type { MachineRow } from '../api';
import { speak } from '../i18n';

function stuckState(status: 'running' | 'succeeded' = 'running', stopping = false) {
  const api = fakeApi();
  const app = new AppState(api);
  app.conversation = conversation({
    status,
    stopping,
    items: [{ kind: 'user', text: 'Fill in the form', joined: false, attachments: [] }],
    stuck: { asking: 'repeating' },
  });
  return { api, app };
}

describe('StuckCard', () => {
  it('says why it asks, and each answer does what it says', async () => {
    const { api, app } = stuckState();
    render(StuckCard, { app, why: 'repeating' });
    expect(screen.getByTestId('stuck-why')).toHaveTextContent('done the same thing several times in a row');
    // No empty hint goes out.
    expect(screen.getByTestId('stuck-hint')).toBeDisabled();
    await userEvent.type(screen.getByTestId('stuck-hint-text'), 'The button is called Keep');
    await userEvent.click(screen.getByTestId('stuck-hint'));
    expect(api.answerStuck).toHaveBeenCalledWith('c1', { kind: 'hint', text: 'The button is called Keep' });
    expect(screen.getByTestId('stuck-hint-text')).toHaveValue('');

    await userEvent.click(screen.getByTestId('stuck-keep-going'));
    expect(api.answerStuck).toHaveBeenLastCalledWith('c1', { kind: 'keepGoing' });
    // Stop is the Stop button's own command.
    await userEvent.click(screen.getByTestId('stuck-stop'));
    expect(api.stopTask).toHaveBeenCalledWith('c1');
  });

  afterEach(() => speak('en'));

  it('words its reasons and answers in German', () => {
    speak('de');
    const { app } = stuckState();
    render(StuckCard, { app, why: 'quiet' });
    expect(screen.getByTestId('stuck-why')).toHaveTextContent('seit ein paar Minuten keinen neuen Schritt');
    expect(screen.getByTestId('stuck-hint')).toHaveTextContent('Gib ihm einen Hinweis');
    expect(screen.getByTestId('stuck-keep-going')).toHaveTextContent('Weiterlaufen lassen');
  });
});

describe('Thread with a stuck task', () => {
  const machine = { machineId: 'm1', name: 'Design laptop' } as MachineRow;

  it('shows the card while the task runs, and not once it ended or is stopping', () => {
    const running = stuckState('running');
    const { unmount } = render(Thread, { conversation: running.app.conversation, machine, app: running.app });
    expect(screen.getByTestId('stuck-card')).toHaveAttribute('data-why', 'repeating');
    unmount();
    for (const [status, stopping] of [['succeeded', false], ['running', true]] as const) {
      const s = stuckState(status, stopping);
      const r = render(Thread, { conversation: s.app.conversation, machine, app: s.app });
      expect(screen.queryByTestId('stuck-card')).toBeNull();
      r.unmount();
    }
  });
});
