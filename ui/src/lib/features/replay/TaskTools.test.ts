import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { createRawSnippet } from 'svelte';
import TaskTools from './TaskTools.svelte';
import { conversation, machine } from '../../../tests/fake-api';

const children = createRawSnippet(() => ({ render: () => '<p>The thread</p>' }));

describe('TaskTools', () => {
  it('says why steps, checking and reusing are not available for a task without an id', async () => {
    // The service gave this task no turn id: nothing to fetch steps or checks by.
    const done = conversation({ status: 'succeeded', follower: null });
    render(TaskTools, { conversation: done, machine: machine({ cloud: false }), children });
    for (const [tab, words] of [
      ['steps', 'show the steps'],
      ['check', 'check the result'],
      ['reusable', 'make this task reusable'],
    ]) {
      await userEvent.click(screen.getByTestId(`tab-${tab}`));
      const sentence = screen.getByTestId('no-turn-id');
      expect(sentence).toHaveTextContent(words);
      expect(sentence).toHaveTextContent('the service didn’t say which task it was');
    }
  });

  it('offers no task tabs while the task runs', () => {
    render(TaskTools, { conversation: conversation({ status: 'running' }), machine: machine(), children });
    expect(screen.queryByTestId('tab-steps')).toBeNull();
  });
});
