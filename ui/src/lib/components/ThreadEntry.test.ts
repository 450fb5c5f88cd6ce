import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import ThreadEntry from './ThreadEntry.svelte';

describe('A message in the thread', () => {
  it('names the files that were sent with it', () => {
    render(ThreadEntry, {
      item: { kind: 'user', text: 'Sum the table', joined: false, attachments: ['table.csv', 'my notes.md'] },
    });
    const files = within(screen.getByRole('list', { name: 'Files sent with this message' }));
    expect(files.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['table.csv', 'my notes.md']);
    expect(screen.getByTestId('sent-attachments')).toHaveTextContent('Attached');
  });

  it('shows no file line for a message without files, or one saved before files were kept', () => {
    render(ThreadEntry, { item: { kind: 'user', text: 'Hello', joined: false, attachments: [] } });
    render(ThreadEntry, { item: { kind: 'user', text: 'Older', joined: false } });
    expect(screen.getAllByTestId('thread-item')).toHaveLength(2);
    expect(screen.queryByTestId('sent-attachments')).toBeNull();
  });
});
