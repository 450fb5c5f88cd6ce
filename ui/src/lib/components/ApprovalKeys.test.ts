// Enter answers no card: not in the composer while a card waits, and not on the card itself.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Composer from './Composer.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, machine } from '../../tests/fake-api';
import type { ApprovalRequest } from '../api';

const card: ApprovalRequest = {
  approvalId: 'ap_1',
  kind: 'yesNo',
  questions: [],
  title: 'Delete old invoices',
  description: '',
  approvalType: 'exec',
  isLinkOnly: false,
  approvalUrl: null,
  command: null,
  cwd: null,
  expiresAt: null,
  task: '',
  reading: { destructive: false, deletes: [], mismatch: null },
};

describe('Enter and a waiting card', () => {
  it('Enter in the composer never approves the card that waits', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation({ status: 'needsApproval', pendingApproval: card });
    render(Composer, { app: state, machine: machine() });
    const box = screen.getByTestId('composer');
    await userEvent.type(box, 'yes{Enter}');
    await userEvent.type(box, '{Enter}');
    expect(api.answerApproval).not.toHaveBeenCalled();
    expect(api.chooseApproval).not.toHaveBeenCalled();
  });
});
