import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import DeleteConversation from './DeleteConversation.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi } from '../../tests/fake-api';
import { ApiError } from '../ui-error';

function appWith(status: 'succeeded' | 'running', api = fakeApi()) {
  const app = new AppState(api);
  app.conversation = conversation({ id: 'c1', title: 'Weather in Lisbon', status });
  app.conversations = [
    { id: 'c1', machineId: 'm1', title: 'Weather in Lisbon', updatedAt: 1, status, current: false },
  ];
  return { app, api };
}

const oneFilm = { list: vi.fn(async () => [{ id: '1', startedMs: 1, frames: 3 }]) };

describe('DeleteConversation', () => {
  it('says what goes and what the service keeps, with Keep it first, and deletes on Delete', async () => {
    const { app, api } = appWith('succeeded');
    const ondeleted = vi.fn();
    const onClose = vi.fn();
    render(DeleteConversation, { app, conversationId: 'c1', films: oneFilm, onClose, ondeleted });
    expect(screen.getByTestId('delete-conversation-name')).toHaveTextContent('Weather in Lisbon');
    expect(await screen.findByTestId('delete-conversation-films')).toHaveTextContent('its film');
    expect(screen.getByTestId('delete-conversation-stays')).toHaveTextContent('service keeps its own record');
    expect(screen.getByTestId('delete-conversation-no')).toHaveFocus();
    await userEvent.click(screen.getByTestId('delete-conversation-yes'));
    expect(api.deleteConversation).toHaveBeenCalledWith('c1');
    expect(ondeleted).toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('offers Stop instead of Delete while a task runs there', async () => {
    const { app, api } = appWith('running');
    render(DeleteConversation, { app, conversationId: 'c1', films: { list: vi.fn(async () => []) }, onClose: vi.fn(), ondeleted: vi.fn() });
    expect(screen.getByTestId('delete-conversation-running')).toHaveTextContent('Stop it first');
    expect(screen.queryByTestId('delete-conversation-yes')).toBeNull();
    expect(screen.queryByTestId('delete-conversation-films')).toBeNull();
    await userEvent.click(screen.getByTestId('delete-conversation-stop'));
    expect(api.stopTask).toHaveBeenCalledWith('c1');
    expect(api.deleteConversation).not.toHaveBeenCalled();
  });

  it('keeps the dialog open with the reason when the delete is refused', async () => {
    const refused = new ApiError({ code: 'task_running_here', title: 'A task is still running here', detail: 'Stop the task first, then delete the conversation.', retryAt: null, action: null });
    const { app } = appWith('succeeded', fakeApi({ deleteConversation: vi.fn(async () => Promise.reject(refused)) }));
    const ondeleted = vi.fn();
    render(DeleteConversation, { app, conversationId: 'c1', films: { list: vi.fn(async () => []) }, onClose: vi.fn(), ondeleted });
    await userEvent.click(screen.getByTestId('delete-conversation-yes'));
    expect(await screen.findByTestId('delete-conversation-error')).toHaveTextContent('A task is still running here');
    expect(ondeleted).not.toHaveBeenCalled();
  });
});
