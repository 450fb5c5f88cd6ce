import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ApprovalCard from './ApprovalCard.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, uiError } from '../../tests/fake-api';
import type { ApprovalRequest } from '../api';

const approval: ApprovalRequest = {
  approvalId: 'ap_1',
  kind: 'yesNo',
  questions: [],
  title: 'Delete old invoices',
  description: 'Removes 12 files',
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

describe('ApprovalCard', () => {
  it('says in words what will happen, folds the command away, and names the act on a red button', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation({ status: 'needsApproval', pendingApproval: approval });
    render(ApprovalCard, { app: state, approval });
    expect(screen.getByTestId('approval-title'))
      .toHaveTextContent('Permanently delete the folder 2019 in invoices and everything in it?');
    expect(screen.getByTestId('approval-description')).toHaveTextContent('Removes 12 files');
    // The command and folder are there for whoever wants them, folded under Technical details.
    const details = screen.getByTestId('approval-details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(screen.getByTestId('approval-command')).toHaveTextContent('rm -r invoices/2019');
    expect(screen.getByTestId('approval-folder')).toHaveTextContent('/home/ada');
    const act = screen.getByTestId('approval-approve');
    expect(act).toHaveTextContent('Delete folder');
    expect(act).toHaveClass('danger');
    expect(screen.getByTestId('approval-expires')).toHaveTextContent('nothing is deleted');
    expect(screen.getByTestId('approval-countdown').textContent).toMatch(/1 min|\d+ s/);
    expect(screen.getByTestId('approval-card')).toHaveAttribute('data-destructive', 'true');
    // The card has the focus on its heading, never on the act: a key pressed by habit answers nothing.
    expect(document.activeElement).toBe(screen.getByTestId('approval-title'));
    await userEvent.keyboard('{Enter} {Escape}');
    expect(api.answerApproval).not.toHaveBeenCalled();
    expect(screen.queryByTestId('approval-mismatch')).toBeNull();
    await userEvent.click(act);
    await waitFor(() => expect(api.answerApproval).toHaveBeenCalledWith('c1', 'ap_1', true));
  });

  it('warns when the target is not the place the task named', () => {
    const api = fakeApi();
    const state = new AppState(api);
    // Rust's reading of `rm -r ~/Documents/old-reports` in a task that named Downloads.
    const card: ApprovalRequest = {
      ...approval,
      command: 'rm -r ~/Documents/old-reports',
      cwd: '/home/agent',
      reading: {
        destructive: true,
        deletes: [{ kind: 'folder', name: 'old-reports', place: { kind: 'within', folders: ['Documents'] } }],
        mismatch: [{ known: 'downloads', name: 'downloads' }],
      },
    };
    render(ApprovalCard, { app: state, approval: card });
    expect(screen.getByTestId('approval-mismatch'))
      .toHaveTextContent('Your task named Downloads, but this deletes old-reports in Documents.');
  });

  it('keeps a plain Approve and the card\'s title for a step that destroys nothing', () => {
    const api = fakeApi();
    const state = new AppState(api);
    const card: ApprovalRequest = {
      ...approval, title: 'Send the email', description: '', command: 'mail --send draft-1',
      reading: { destructive: false, deletes: [], mismatch: null },
    };
    render(ApprovalCard, { app: state, approval: card });
    expect(screen.getByTestId('approval-title')).toHaveTextContent('Send the email');
    expect(screen.getByTestId('approval-approve')).toHaveTextContent('Approve');
    expect(screen.getByTestId('approval-approve')).toHaveClass('primary');
    expect(screen.getByTestId('approval-expires')).toHaveTextContent('the agent skips this step.');
  });

  it('denies', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    state.conversation = conversation({ pendingApproval: approval });
    render(ApprovalCard, { app: state, approval });
    await userEvent.click(screen.getByTestId('approval-deny'));
    await waitFor(() => expect(api.answerApproval).toHaveBeenCalledWith('c1', 'ap_1', false));
  });

  it('answers a choice card with the values picked, one list per question', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    const choice: ApprovalRequest = {
      ...approval,
      kind: 'choice',
      approvalType: 'choice',
      command: null,
      cwd: null,
      questions: [
        { question: 'Which size?', options: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] },
        { options: [{ value: 'red', label: 'red' }, { value: 'blue', label: 'blue' }], multiple: true, allowOther: true },
      ],
    };
    state.conversation = conversation({ pendingApproval: choice });
    render(ApprovalCard, { app: state, approval: choice });
    expect(screen.queryByTestId('approval-approve')).toBeNull();
    const send = screen.getByTestId('approval-send-choice');
    expect(send).toBeDisabled();
    expect(screen.getAllByTestId('approval-question')).toHaveLength(2);
    expect(screen.getByText('Which size?')).toBeInTheDocument();
    // Under each question, how many it takes; a question without words is headed by it.
    const [size, colour] = screen.getAllByTestId('approval-question');
    expect(size.querySelector('legend')).toHaveTextContent('Which size?');
    expect(size.querySelector('[data-testid="approval-pick-hint"]')).toHaveTextContent('Pick one');
    expect(colour.querySelector('legend')).toHaveTextContent('Pick one or more');
    // Declining a question skips it; nothing there reads "Deny".
    expect(screen.getByTestId('approval-deny')).toHaveTextContent('Skip');
    // "Other" only where the question allows it.
    expect(screen.getAllByTestId('approval-other')).toHaveLength(1);
    // One choice: a second pick replaces the first.
    await userEvent.click(screen.getByText('Small'));
    await userEvent.click(screen.getByText('Large'));
    expect(screen.getByText('Small')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('Large')).toHaveAttribute('aria-pressed', 'true');
    expect(send).toBeDisabled();
    await userEvent.click(screen.getByText('blue'));
    await userEvent.type(screen.getByTestId('approval-other'), 'teal');
    await userEvent.click(send);
    await waitFor(() => expect(api.chooseApproval).toHaveBeenCalledWith('c1', 'ap_1', [['l'], ['blue', 'teal']]));
  });

  it('keeps the picks when the same card comes again in a new object (the conversation sent again)', async () => {
    const state = new AppState(fakeApi());
    const choice: ApprovalRequest = {
      ...approval,
      kind: 'choice',
      approvalType: 'choice',
      command: null,
      cwd: null,
      questions: [{ question: 'Which city?', options: [{ value: 'rome', label: 'Rome' }, { value: 'paris', label: 'Paris' }] }],
    };
    const { rerender } = render(ApprovalCard, { app: state, approval: choice });
    await userEvent.click(screen.getByText('Rome'));
    expect(screen.getByTestId('approval-send-choice')).toBeEnabled();
    // A cost heard while the card waits: the same card, a new object.
    await rerender({ app: state, approval: { ...choice, questions: [...choice.questions] } });
    expect(screen.getByText('Rome')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('approval-send-choice')).toBeEnabled();
    // A new card starts clean.
    await rerender({ app: state, approval: { ...choice, approvalId: 'ap_2' } });
    expect(screen.getByText('Rome')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('approval-send-choice')).toBeDisabled();
  });

  it('sends link-only approvals to the browser', async () => {
    const api = fakeApi();
    const state = new AppState(api);
    const linkOnly = { ...approval, isLinkOnly: true, approvalUrl: 'https://x/approve' };
    state.conversation = conversation({ pendingApproval: linkOnly });
    render(ApprovalCard, { app: state, approval: linkOnly });
    expect(screen.queryByTestId('approval-approve')).toBeNull();
    expect(screen.getByTestId('approval-link-only')).toHaveTextContent('Porthole never sees it');
    await userEvent.click(screen.getByTestId('approval-open-page'));
    await waitFor(() => expect(api.openApprovalPage).toHaveBeenCalledWith('c1', 'ap_1'));
  });

  it('says so on the card when the service refuses a pick, and the card stays to pick again', async () => {
    const { ApiError } = await import('../ui-error');
    const refused = uiError({
      code: 'selection_rejected',
      title: 'That choice wasn’t accepted',
      detail: 'The service did not accept this choice. The question is still waiting: pick again.',
      action: null,
    });
    const api = fakeApi({ chooseApproval: vi.fn(async () => Promise.reject(new ApiError(refused))) });
    const state = new AppState(api);
    const choice: ApprovalRequest = {
      ...approval, kind: 'choice', approvalType: 'choice', command: null, cwd: null,
      questions: [{ options: [{ value: 'rome', label: 'Rome' }], allowOther: true }],
    };
    state.conversation = conversation({ pendingApproval: choice });
    render(ApprovalCard, { app: state, approval: choice });
    await userEvent.type(screen.getByTestId('approval-other'), 'Atlantis');
    await userEvent.click(screen.getByTestId('approval-send-choice'));
    await waitFor(() => expect(screen.getByTestId('approval-refusal')).toHaveTextContent('pick again'));
    expect(screen.getByTestId('approval-send-choice')).toBeEnabled();
    expect(state.actionError).toBeNull();
  });
});
