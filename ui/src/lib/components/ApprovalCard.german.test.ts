// The approval card in German: the sentence read from the command, the act on the button and
// what silence does all come from the catalog, and follow a change of language in place.
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { render, screen } from '@testing-library/svelte';
import ApprovalCard from './ApprovalCard.svelte';
import { AppState } from '../app.svelte';
import { fakeApi } from '../../tests/fake-api';
import type { ApprovalRequest } from '../api';
import { speak } from '../i18n';

const approval: ApprovalRequest = {
  approvalId: 'ap_1',
  kind: 'yesNo',
  questions: [],
  title: 'Delete old invoices',
  description: '',
  approvalType: 'exec',
  isLinkOnly: false,
  approvalUrl: null,
  command: 'rm -r invoices/2019',
  cwd: '/home/ada',
  expiresAt: Date.now() + 90_000,
  task: '',
  reading: {
    destructive: true,
    deletes: [{ kind: 'folder', name: '2019', place: { kind: 'within', folders: ['invoices'] } }],
    mismatch: null,
  },
};

describe('ApprovalCard in German', () => {
  afterEach(() => speak('en'));

  it('says what will happen, names the act and what silence does in German, and follows a change back', () => {
    speak('de');
    render(ApprovalCard, { app: new AppState(fakeApi()), approval });
    expect(screen.getByText('Der Agent bittet um deine Erlaubnis')).toBeInTheDocument();
    expect(screen.getByTestId('approval-title'))
      .toHaveTextContent('Den Ordner 2019 in invoices mit allem darin endgültig löschen?');
    expect(screen.getByTestId('approval-approve')).toHaveTextContent('Ordner löschen');
    expect(screen.getByTestId('approval-deny')).toHaveTextContent('Nicht löschen');
    expect(screen.getByTestId('approval-expires'))
      .toHaveTextContent(/^Wenn du nicht innerhalb von .+ antwortest, überspringt der Agent diesen Schritt – es wird nichts gelöscht\.$/);
    expect(screen.getByText('Technische Details')).toBeInTheDocument();
    expect(screen.queryByTestId('approval-agent-words')).toBeNull();

    speak('en');
    flushSync();
    expect(screen.getByTestId('approval-title'))
      .toHaveTextContent('Permanently delete the folder 2019 in invoices and everything in it?');
    expect(screen.getByTestId('approval-approve')).toHaveTextContent('Delete folder');
  });

  it('folds the agent\'s English words under Porthole\'s own German sentence, and only for a deletion it read', () => {
    speak('de');
    const worded = { ...approval, description: 'Permanently delete the folder 2019 and the 12 files in it.' };
    const { unmount } = render(ApprovalCard, { app: new AppState(fakeApi()), approval: worded });
    expect(screen.getByTestId('approval-title'))
      .toHaveTextContent('Den Ordner 2019 in invoices mit allem darin endgültig löschen?');
    const fold = screen.getByTestId('approval-agent-words') as HTMLDetailsElement;
    expect(fold.open).toBe(false);
    expect(fold.querySelector('summary')).toHaveTextContent('Was der Agent geschrieben hat');
    expect(screen.getByTestId('approval-description')).toHaveAttribute('lang', 'en');
    unmount();

    // A card Porthole did not read keeps its own words in view: they are all there is.
    const plain = { ...worded, reading: { destructive: false, deletes: [], mismatch: null } };
    const second = render(ApprovalCard, { app: new AppState(fakeApi()), approval: plain });
    expect(screen.queryByTestId('approval-agent-words')).toBeNull();
    expect(screen.getByTestId('approval-description')).toBeVisible();
    second.unmount();

    // In English the agent's words stay in view under the sentence.
    speak('en');
    render(ApprovalCard, { app: new AppState(fakeApi()), approval: worded });
    expect(screen.queryByTestId('approval-agent-words')).toBeNull();
  });
});
