import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import ThreadEntry from './ThreadEntry.svelte';
import { taskView } from '../task-view';
import { conversation } from '../../tests/fake-api';
import { speak } from '../i18n';
import type { ApprovalRequest, ThreadItem } from '../api';

const card: ApprovalRequest = {
  approvalId: 'ap_1', kind: 'yesNo', questions: [], title: 'Which city?', description: '',
  approvalType: null, isLinkOnly: false, approvalUrl: null, command: null, cwd: null,
  expiresAt: null, task: '', reading: { destructive: false, deletes: [], mismatch: null },
};

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

describe('A question of the agent in the thread and the header', () => {
  it('words the line and the chip by what the card asks: a permission, a choice, a web page', () => {
    render(ThreadEntry, { item: { kind: 'approval', title: 'Send the email', asks: 'yesNo' } });
    render(ThreadEntry, { item: { kind: 'approval', title: 'Which city?', asks: 'choice' } });
    render(ThreadEntry, { item: { kind: 'approval', title: 'Sign in to the bank', asks: 'linkOnly' } });
    expect(screen.getAllByTestId('thread-item').map((li) => li.textContent)).toEqual([
      'Asked for permission: Send the email',
      'Asked you: Which city?',
      'Asked you to answer on a web page: Sign in to the bank',
    ]);
    const chip = (kind: ApprovalRequest['kind']) =>
      taskView(conversation({ status: 'needsApproval', pendingApproval: { ...card, kind } })).chip.words;
    expect([chip('yesNo'), chip('choice'), chip('linkOnly')])
      .toEqual(['Needs your approval', 'Needs your answer', 'Needs you on a web page']);
  });

  it('says a deletion Porthole read in its own sentence, in German too, not in the agent\'s words', () => {
    const item: ThreadItem = {
      kind: 'approval', title: 'Delete the folder old-reports', asks: 'yesNo',
      deletes: [{ kind: 'folder', name: 'old-reports', place: { kind: 'within', folders: ['Documents'] } }],
    };
    const { unmount } = render(ThreadEntry, { item });
    expect(screen.getByTestId('thread-item'))
      .toHaveTextContent('Asked for permission: Permanently delete the folder old-reports in Documents and everything in it');
    unmount();
    speak('de');
    try {
      render(ThreadEntry, { item });
      expect(screen.getByTestId('thread-item'))
        .toHaveTextContent('Um Erlaubnis gebeten: Den Ordner old-reports in Documents mit allem darin endgültig löschen');
    } finally {
      speak('en');
    }
  });
});
