import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Composer from './Composer.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, machine } from '../../tests/fake-api';

async function setup() {
  const api = fakeApi();
  const state = new AppState(api);
  state.conversation = conversation();
  render(Composer, { app: state, machine: machine() });
  return { api, box: screen.getByTestId('composer') as HTMLTextAreaElement };
}

describe('Composer', () => {
  it('sends on Enter and clears the box', async () => {
    const { api, box } = await setup();
    await userEvent.type(box, 'Find the weather{Enter}');
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalledWith({
        conversationId: 'c1',
        text: 'Find the weather',
        model: null,
        attachments: [],
        options: { recordSteps: false, outputSchema: '', successCriteria: null },
      }),
    );
    expect(box.value).toBe('');
  });

  it('adds a new line on Shift+Enter without sending', async () => {
    const { api, box } = await setup();
    await userEvent.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box.value).toBe('line one\nline two');
    expect(api.sendMessage).not.toHaveBeenCalled();
  });

  it('keeps the text when sending fails', async () => {
    const { ApiError } = await import('../ui-error');
    const api = fakeApi({
      sendMessage: async () => {
        throw new ApiError({ code: 'network', title: 'Can’t reach the service', detail: 'x.', retryAt: null, action: 'retry' });
      },
    });
    const state = new AppState(api);
    state.conversation = conversation();
    render(Composer, { app: state, machine: machine() });
    const box = screen.getByTestId('composer') as HTMLTextAreaElement;
    await userEvent.type(box, 'hello{Enter}');
    await waitFor(() => expect(state.actionError?.code).toBe('network'));
    expect(box.value).toBe('hello');
  });
});
