import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';

const checkResult = vi.fn();
const keepCheck = vi.fn();
keepCheck.mockResolvedValue(null);
vi.mock('../../api', () => ({
  api: { checkResult: (...a: unknown[]) => checkResult(...a), keepCheck: (...a: unknown[]) => keepCheck(...a) },
}));

import CheckResult from './CheckResult.svelte';

describe('CheckResult', () => {
  it('sends checks, says each verdict in words, a bar only where unsure, and why a check could not be made', async () => {
    checkResult.mockResolvedValue({
      judgementId: 'judgement_1', verdict: 'unverifiable', summary: '1 of 2 checks passed', task: 't',
      turns: ['turn_1'], usage: null, researchPreview: true,
      criteria: [
        { id: 'check-1', check: 'Reports the weather', verdict: 'passed', score: 0.9, evidence: 'Step 3 read 21 °C' },
        { id: 'check-2', check: 'The layout looks tidy', verdict: 'unverifiable', score: 0.5, evidence: 'Needs the screen' },
        { id: 'check-3', check: 'Gives tomorrow too', verdict: 'passed', score: 0.55, evidence: 'From the answer' },
      ],
    });
    render(CheckResult, { conversationId: 'c1', turnId: 'turn_1' });
    await userEvent.click(screen.getByTestId('judge-checks-mode'));
    await userEvent.type(screen.getByTestId('judge-check'), 'Reports the weather');
    await userEvent.click(screen.getByTestId('judge-run'));
    await waitFor(() => expect(screen.getByTestId('judge-verdict')).toHaveAttribute('data-verdict', 'unverifiable'));
    const [turnId, criteria, key] = checkResult.mock.calls[0];
    expect(turnId).toBe('turn_1');
    expect(criteria).toEqual([{ id: 'check-1', check: 'Reports the weather', returnEvidence: true }]);
    expect(key).toMatch(/^porthole-/);
    // The core keeps it with the conversation, for the task's receipt after a restart too:
    // counted as shown, "Not sure" no pass and what could not be told left out.
    expect(keepCheck).toHaveBeenCalledWith('c1', 'turn_1', { passed: 1, of: 2 });
    // A clear pass has no bar; an unsure one has, an unverifiable one says why instead.
    const rows = screen.getAllByTestId('judge-criterion');
    expect(rows[0].querySelector('[data-testid="judge-score"]')).toBeNull();
    expect(rows[2].querySelector('[data-testid="judge-score"]')).not.toBeNull();
    expect(rows[2]).toHaveTextContent('Not sure: about 55% likely');
    // A pass at 55% is not called "Passed": it reads "Not sure", in amber.
    expect(rows[2]).toHaveAttribute('data-verdict', 'unsure');
    expect(rows[2]).not.toHaveTextContent('Passed');
    expect(rows[0]).toHaveAttribute('data-verdict', 'passed');
    expect(screen.getAllByTestId('judge-score')).toHaveLength(1);
    expect(screen.getAllByTestId('judge-evidence-text')[0]).toHaveTextContent('Step 3 read 21 °C');
    expect(screen.getByTestId('judge-unverifiable')).toHaveTextContent('could not be checked');
    expect(screen.getByTestId('judge-unverifiable')).toHaveTextContent('Look at the final screen');
    expect(screen.getByTestId('check-result')).not.toHaveTextContent(/judge|checker|show evidence/i);

    // The same question again reuses the key, so it is not paid for twice.
    await userEvent.click(screen.getByTestId('judge-run'));
    await waitFor(() => expect(checkResult).toHaveBeenCalledTimes(2));
    expect(checkResult.mock.calls[1][2]).toBe(key);
  });

  it('keeps the keyboard on Check while it checks, and a second Enter asks nothing twice', async () => {
    let finish: (j: unknown) => void = () => {};
    checkResult.mockReset();
    checkResult.mockReturnValue(new Promise((r) => (finish = r)));
    render(CheckResult, { conversationId: 'c1', turnId: 'turn_1' });
    await userEvent.type(screen.getByTestId('judge-sentence'), 'Gives a temperature');
    screen.getByTestId('judge-run').focus();
    await userEvent.keyboard('{Enter}');
    const run = screen.getByTestId('judge-run');
    expect(screen.getByTestId('judge-progress')).toBeInTheDocument();
    expect(run).toHaveAttribute('aria-disabled', 'true');
    expect(run).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(checkResult).toHaveBeenCalledTimes(1);
    finish({ judgementId: 'j', verdict: 'passed', summary: 'Passed', task: 't', turns: [], usage: null, researchPreview: true, criteria: [] });
    await screen.findByTestId('judge-verdict');
    expect(run).toHaveAttribute('aria-disabled', 'false');
    expect(run).toHaveFocus();
  });
});
