import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { ReusableDraft, ReusableTask } from '../../api';
import { ApiError } from '../../ui-error';

// Only the app's api module is replaced: the draft and learn come through it.
const api = vi.hoisted(() => ({ draftReusable: vi.fn(), learnReusable: vi.fn() }));
vi.mock('../../api', () => ({ api }));

import MakeReusable from './MakeReusable.svelte';

// jsdom lays nothing out; CodeMirror (the learned code) measures text ranges.
Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

const draft: ReusableDraft = {
  turnId: 'turn_1',
  message: 'Look up the weather in Paris for Friday',
  suggestion: {
    template: 'Look up the weather in {{city}} for {{day}}',
    placeholders: [{ name: 'city', value: 'Paris' }, { name: 'day', value: 'Friday' }],
  },
};

const learned: ReusableTask = {
  id: 'r1', scope: 'demo', title: 'Weather lookup', template: 'Look up the weather in {{city}} for {{day}}',
  parameters: [{ name: 'city', defaultValue: 'Paris' }, { name: 'day', defaultValue: 'Friday' }],
  code: 'async function main({ city, day }) { return machine.search(city + " " + day); }',
  errors: ['The code never reads the parameter "day".'],
  warnings: ['Step 3 depends on the window size.'],
  learnId: 'learn_1', sourceTurns: ['turn_1'], createdAt: null, changes: null, failedRuns: [],
};

const tooMany = new ApiError({
  code: 'rate_limited', title: 'Too many requests', detail: 'Wait a moment, then try again.',
  retryAt: null, action: 'retry',
});

beforeEach(() => {
  vi.resetAllMocks();
  api.draftReusable.mockResolvedValue(draft);
});

describe('Make this reusable', () => {
  it('shows the task with its changeable words in plain words, the template under Details, and learns from the template the person edits', async () => {
    render(MakeReusable, { conversationId: 'c1' });
    const template = await screen.findByTestId('reusable-template');
    expect(api.draftReusable).toHaveBeenCalledWith('c1');
    expect(screen.getByText(/You asked:/).parentElement).toHaveTextContent('Look up the weather in Paris for Friday');
    // The sentence as it will run, its changeable words marked with their names: no {{…}}.
    const suggested = screen.getByTestId('reusable-suggestions');
    expect(screen.getByTestId('reusable-filled')).toHaveTextContent(/^Look up the weather in City ?Paris for Day ?Friday$/);
    expect(suggested.textContent).not.toContain('{{');
    // The template itself is folded under Details.
    const details = screen.getByTestId('reusable-template-details');
    expect(details).not.toHaveAttribute('open');
    expect(details).toContainElement(template);
    expect(template).toHaveValue('Look up the weather in {{city}} for {{day}}');

    // The person keeps the day fixed.
    await userEvent.click(screen.getByText('Details'));
    await userEvent.clear(template);
    await userEvent.type(template, 'Look up the weather in {{{{city}} for Friday');
    let finish: (t: ReusableTask) => void = () => {};
    api.learnReusable.mockReturnValue(new Promise((r) => (finish = r)));
    await userEvent.click(screen.getByTestId('reusable-learn'));
    expect(screen.getByTestId('reusable-progress')).toHaveTextContent('about two minutes');
    // Busy, not disabled: it keeps the keyboard focus, and a second press learns nothing twice.
    expect(screen.getByTestId('reusable-learn')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('reusable-learn')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(api.learnReusable).toHaveBeenCalledTimes(1);
    expect(template).toBeDisabled();
    const [turnId, sent, key] = api.learnReusable.mock.calls[0];
    expect(turnId).toBe('turn_1');
    expect(sent).toBe('Look up the weather in {{city}} for Friday');
    expect(key).toMatch(/^porthole-/);

    finish({ ...learned, parameters: [{ name: 'city', defaultValue: 'Paris' }], errors: [], warnings: [] });
    expect(await screen.findByTestId('reusable-saved')).toHaveTextContent('Saved. It’s in “Saved tasks”');
    expect(screen.queryByTestId('reusable-progress')).not.toBeInTheDocument();
  });

  it('shows what was learned: title, parameters with defaults, the code, and the validation errors and warnings', async () => {
    api.learnReusable.mockResolvedValue(learned);
    render(MakeReusable, { conversationId: 'c1' });
    await userEvent.click(await screen.findByTestId('reusable-learn'));

    expect(await screen.findByTestId('reusable-title')).toHaveTextContent('Look up the weather in ‹City› for ‹Day›');
    expect(screen.getByTestId('reusable-parameters'))
      .toHaveTextContent('Changeable: City (last time “Paris”), Day (last time “Friday”).');
    expect(screen.getByTestId('reusable-errors')).toHaveTextContent('may not run as it should');
    expect(screen.getByTestId('reusable-errors')).toHaveTextContent('The code never reads the parameter "day".');
    expect(screen.getByTestId('reusable-warnings')).toHaveTextContent('Step 3 depends on the window size.');
    await userEvent.click(screen.getByText('Technical details'));
    expect(screen.getByTestId('reusable-code')).toHaveTextContent('async function main({ city, day })');
  });

  it('a failed learn says why; Try again sends the same key so it is not paid for twice', async () => {
    api.learnReusable.mockRejectedValueOnce(tooMany).mockResolvedValueOnce(learned);
    render(MakeReusable, { conversationId: 'c1' });
    await userEvent.click(await screen.findByTestId('reusable-learn'));

    const banner = await screen.findByTestId('reusable-error');
    expect(banner).toHaveTextContent('Too many requests');
    expect(banner).toHaveTextContent('Wait a moment, then try again.');
    // The template is still there to edit.
    expect(screen.getByTestId('reusable-template')).toHaveValue(draft.suggestion.template);

    await userEvent.click(screen.getByTestId('reusable-error-action'));
    await screen.findByTestId('reusable-saved');
    expect(api.learnReusable).toHaveBeenCalledTimes(2);
    expect(api.learnReusable.mock.calls[1][2]).toBe(api.learnReusable.mock.calls[0][2]);
  });

  it('a changed template is a new request, with a new key', async () => {
    api.learnReusable.mockRejectedValueOnce(tooMany).mockResolvedValueOnce(learned);
    render(MakeReusable, { conversationId: 'c1' });
    await userEvent.click(await screen.findByTestId('reusable-learn'));
    await screen.findByTestId('reusable-error');

    await userEvent.click(screen.getByText('Details'));
    await userEvent.type(screen.getByTestId('reusable-template'), ' please');
    await userEvent.click(screen.getByTestId('reusable-learn'));
    await screen.findByTestId('reusable-saved');
    expect(api.learnReusable.mock.calls[1][1]).toBe('Look up the weather in {{city}} for {{day}} please');
    expect(api.learnReusable.mock.calls[1][2]).not.toBe(api.learnReusable.mock.calls[0][2]);
  });

  it('says when no words to replace were found', async () => {
    api.draftReusable.mockResolvedValue({ ...draft, message: 'Tidy the desktop', suggestion: { template: 'Tidy the desktop', placeholders: [] } });
    render(MakeReusable, { conversationId: 'c1' });
    expect(await screen.findByTestId('reusable-none')).toHaveTextContent('No words to change were found');
    expect(screen.queryByTestId('reusable-suggestions')).not.toBeInTheDocument();
  });

  it('says why the task cannot be made reusable when the draft fails', async () => {
    api.draftReusable.mockRejectedValue(new ApiError({
      code: 'trajectory_not_recorded', title: 'This task was not recorded',
      detail: 'Send it again with “Record steps” on, then make it reusable.', retryAt: null, action: null,
    }));
    render(MakeReusable, { conversationId: 'c1' });
    await waitFor(() => expect(screen.getByTestId('reusable-error')).toHaveTextContent('This task was not recorded'));
    expect(screen.queryByTestId('reusable-learn')).not.toBeInTheDocument();
  });
});
