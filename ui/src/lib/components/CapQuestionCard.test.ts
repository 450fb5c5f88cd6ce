import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import CapQuestionCard from './CapQuestionCard.svelte';
import Thread from './Thread.svelte';
import { AppState } from '../app.svelte';
import { speak } from '../i18n';
import { ApiError } from '../ui-error';
import { conversation, fakeApi, uiError } from '../../tests/fake-api';
import type { CapQuestion, MachineRow } from '../api';

const question: CapQuestion = { costUsd: 1.6, capUsd: 2, raiseToUsd: 4 };

describe('the question near the cap', () => {
  afterEach(() => speak('en'));

  it('says what the task cost of the cap and offers the raise, or the stop at the cap', () => {
    const state = new AppState(fakeApi());
    render(CapQuestionCard, { app: state, question });
    expect(screen.getByTestId('cap-question-title'))
      .toHaveTextContent('This task has cost $1.60 of your $2.00. Let it go up to $4.00?');
    expect(screen.getByText('If you do nothing, Porthole stops it at $2.00.')).toBeInTheDocument();
    expect(screen.getByTestId('cap-raise')).toHaveTextContent('Let it go up to $4.00');
    expect(screen.getByTestId('cap-keep')).toHaveTextContent('Stop at $2.00');
  });

  it('asks in German, with du, when the page speaks German', () => {
    speak('de');
    const state = new AppState(fakeApi());
    render(CapQuestionCard, { app: state, question });
    expect(screen.getByTestId('cap-question-title')).toHaveTextContent(
      'Diese Aufgabe hat 1,60 $ von deinen 2,00 $ gekostet. Darf sie bis 4,00 $ weiterlaufen?',
    );
    expect(screen.getByTestId('cap-raise')).toHaveTextContent('Bis 4,00 $ weiterlaufen lassen');
    expect(screen.getByTestId('cap-keep')).toHaveTextContent('Bei 2,00 $ stoppen');
  });

  it('raises or keeps the cap of the open conversation with one click', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation({ id: 'c9', status: 'running', capUsd: 2, capQuestion: question });
    render(CapQuestionCard, { app: state, question });
    await userEvent.click(screen.getByTestId('cap-raise'));
    expect(api.raiseCap).toHaveBeenCalledWith('c9');
    await userEvent.click(screen.getByTestId('cap-keep'));
    expect(api.keepCap).toHaveBeenCalledWith('c9');
  });

  it('says so on the card when the task ended before the answer', async () => {
    const refused = uiError({
      code: 'no_pending_approval',
      title: 'Nothing to answer',
      detail: 'The agent is no longer waiting for an answer.',
      action: null,
    });
    const api = fakeApi({ raiseCap: vi.fn(async () => Promise.reject(new ApiError(refused))) });
    const state = new AppState(api);
    state.conversation = conversation({ status: 'running', capQuestion: question });
    render(CapQuestionCard, { app: state, question });
    await userEvent.click(screen.getByTestId('cap-raise'));
    await waitFor(() => expect(screen.getByTestId('cap-question-refusal')).toHaveTextContent('Nothing to answer'));
  });

  it('shows in the thread only while its task runs', () => {
    const state = new AppState(fakeApi());
    const machine = { machineId: 'm1', name: 'Design laptop' } as MachineRow;
    const running = conversation({
      status: 'running', capQuestion: question,
      items: [{ kind: 'user', text: 'Count to 20', joined: false, attachments: [] }],
    });
    const { rerender } = render(Thread, { conversation: running, machine, app: state });
    expect(screen.getByTestId('cap-question')).toBeInTheDocument();
    rerender({ conversation: { ...running, status: 'stopped' }, machine, app: state });
    expect(screen.queryByTestId('cap-question')).toBeNull();
  });
});
