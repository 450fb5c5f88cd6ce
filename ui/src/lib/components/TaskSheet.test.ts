import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import TaskSheet from './TaskSheet.svelte';
import AnswerActions from './AnswerActions.svelte';
import { conversation, machine } from '../../tests/fake-api';

describe('TaskSheet', () => {
  it('says why steps, checking and reusing are not available for a task without an id', () => {
    // The service gave this task no turn id: nothing to fetch steps or checks by.
    const done = conversation({ status: 'succeeded', follower: null });
    for (const [kind, words] of [
      ['steps', 'show the steps'],
      ['check', 'check the result'],
      ['reusable', 'save this task'],
    ] as const) {
      const view = render(TaskSheet, { sheet: { kind }, conversation: done, machine: machine(), onclose: () => {} });
      const sentence = screen.getByTestId('no-turn-id');
      expect(sentence).toHaveTextContent(words);
      expect(sentence).toHaveTextContent('the service didn’t say which task it was');
      view.unmount();
    }
  });

  it('closes with × and with Escape', async () => {
    const onclose = vi.fn();
    const done = conversation({ status: 'succeeded', follower: null });
    render(TaskSheet, { sheet: { kind: 'steps' }, conversation: done, machine: machine(), onclose });
    await userEvent.click(screen.getByTestId('sheet-close'));
    expect(onclose).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Escape}');
    expect(onclose).toHaveBeenCalledTimes(2);
  });
});

describe('AnswerActions', () => {
  it('offers the steps, the check and saving, each opening its sheet', async () => {
    const onopen = vi.fn();
    render(AnswerActions, { onopen });
    expect(screen.getByTestId('answer-actions')).toHaveTextContent(
      'See the steps' + 'Check this result' + 'Save this task',
    );
    await userEvent.click(screen.getByTestId('answer-check'));
    expect(onopen).toHaveBeenCalledWith('check');
  });

  it('offers to run the finished task on a schedule, with its words', async () => {
    const machines = [{ machineId: 'm1', name: 'Design laptop' }];
    render(AnswerActions, { onopen: vi.fn(), task: 'Check the weather in Oslo', machines, machineId: 'm1' });
    await userEvent.click(screen.getByTestId('answer-schedule'));
    expect(screen.getByTestId('schedule-text')).toHaveValue('Check the weather in Oslo');
    expect(screen.getByTestId('schedule-machine')).toHaveValue('m1');
  });
});
