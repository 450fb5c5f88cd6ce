import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Recording, Step } from '../../api';
import { ApiError } from '../../ui-error';

// Only the app's api module is replaced: the recording and each screenshot come through it.
const api = vi.hoisted(() => ({ getRecording: vi.fn(), stepScreenshot: vi.fn() }));
vi.mock('../../api', () => ({ api }));

import Replay from './Replay.svelte';

// jsdom lays nothing out; CodeMirror (the highlighted code) measures text ranges.
Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

const steps: Step[] = [
  { index: 0, title: 'Open the browser', rationale: 'The price is on a web page', code: 'machine.open("firefox")', screenshot: 's/0', error: null },
  { index: 1, title: 'Search for coffee', rationale: 'Find the shop', code: 'machine.type("coffee price")', screenshot: null, error: null },
  { index: 2, title: 'Click the first result', rationale: 'It looks right', code: 'machine.click(120, 300)', screenshot: 's/2', error: 'The button was not there' },
  { index: 3, final: true, title: 'Done', screenshot: 's/3' },
];

function recording(list: Step[] = steps, recorded = true): Recording {
  return { turn: { turnId: 'turn_1' } as Recording['turn'], steps: list, recorded };
}

beforeEach(() => {
  vi.resetAllMocks();
  api.stepScreenshot.mockImplementation(async (_turn: string, index: number) => `blob:shot-${index}`);
});

describe('Step-by-step replay', () => {
  it('shows a timeline: title, reason, the code it ran, errors, each screenshot and the final screen', async () => {
    api.getRecording.mockResolvedValue(recording());
    render(Replay, { turnId: 'turn_1' });

    const items = await screen.findAllByTestId('replay-step');
    expect(items).toHaveLength(4);
    expect(screen.getByText('3 steps. Click a screenshot to see it large; use ← and → to move.')).toBeInTheDocument();
    const titles = screen.getAllByTestId('replay-step-title').map((t) => t.textContent);
    expect(titles).toEqual(['1. Open the browser', '2. Search for coffee', '3. Click the first result', 'The final screen']);
    expect(within(items[0]).getByText('The price is on a web page')).toBeInTheDocument();
    expect(screen.getByTestId('replay-step-error')).toHaveTextContent('This step failed: The button was not there');
    expect(within(items[2]).getByTestId('replay-step-error')).toBeInTheDocument();

    // No code in a person's way: not under any step until the one "Technical details" switch,
    // which shows each step's, highlighted.
    expect(screen.queryByText('The code it ran')).toBeNull();
    expect(screen.queryAllByTestId('replay-code')).toHaveLength(0);
    await userEvent.click(screen.getByLabelText('Technical details'));
    expect(within(items[0]).getByTestId('replay-code')).toHaveTextContent('machine.open("firefox")');
    expect(within(items[3]).queryByTestId('replay-code')).toBeNull();
    await waitFor(() => expect(within(items[0]).getByTestId('replay-code').querySelector('.cm-editor')).not.toBeNull());

    // Screenshots load for the steps that have one; the one without says so.
    await waitFor(() => expect(screen.getAllByTestId('replay-shot')).toHaveLength(3));
    expect(screen.getAllByTestId('replay-shot').map((i) => i.getAttribute('src')))
      .toEqual(['blob:shot-0', 'blob:shot-2', 'blob:shot-3']);
    expect(within(items[1]).getByText('No screenshot')).toBeInTheDocument();
    expect(api.stepScreenshot).not.toHaveBeenCalledWith('turn_1', 1);
  });

  it('a screenshot that cannot be fetched says so, and the others still show', async () => {
    api.getRecording.mockResolvedValue(recording());
    api.stepScreenshot.mockImplementation(async (_t: string, index: number) => {
      if (index === 0) throw new ApiError({ code: 'turn_not_found', title: 'Not found', detail: '', retryAt: null, action: null });
      return `blob:shot-${index}`;
    });
    render(Replay, { turnId: 'turn_1' });
    const items = await screen.findAllByTestId('replay-step');
    await waitFor(() => expect(screen.getAllByTestId('replay-shot')).toHaveLength(2));
    expect(within(items[0]).getByText('No screenshot')).toBeInTheDocument();

    // Its name says what it shows, as a screen reader reads it.
    await userEvent.click(within(items[0]).getByRole('button', { name: 'No screenshot. See the screen of step 1 large' }));
    expect(within(screen.getByTestId('step-viewer')).getByText('No screenshot for this step.')).toBeInTheDocument();
    expect(screen.queryByTestId('step-viewer-image')).not.toBeInTheDocument();
  });

  it('the large view moves with previous / next and the arrow keys, and stops at both ends', async () => {
    api.getRecording.mockResolvedValue(recording());
    render(Replay, { turnId: 'turn_1' });
    await waitFor(() => expect(screen.getAllByTestId('replay-shot')).toHaveLength(3));

    await userEvent.click(screen.getByRole('button', { name: 'See the screen of step 1 large' }));
    const title = () => screen.getByTestId('step-viewer-title').textContent;
    expect(title()).toBe('Step 1 of 3: Open the browser');
    expect(screen.getByTestId('step-viewer-image')).toHaveAttribute('src', 'blob:shot-0');
    expect(screen.getByTestId('step-prev')).toBeDisabled();

    // ← on the first step stays there.
    await userEvent.keyboard('{ArrowLeft}');
    expect(title()).toBe('Step 1 of 3: Open the browser');

    await userEvent.click(screen.getByTestId('step-next'));
    expect(title()).toBe('Step 2 of 3: Search for coffee');
    expect(screen.getByText('No screenshot for this step.')).toBeInTheDocument();

    await userEvent.keyboard('{ArrowRight}');
    expect(title()).toBe('Step 3 of 3: Click the first result');
    expect(within(screen.getByTestId('step-viewer')).getByText('This step failed: The button was not there')).toBeInTheDocument();

    await userEvent.keyboard('{ArrowRight}');
    expect(title()).toBe('The final screen');
    expect(screen.getByTestId('step-viewer-image')).toHaveAttribute('src', 'blob:shot-3');
    // No next after the last.
    expect(screen.getByTestId('step-next')).toBeDisabled();
    await userEvent.keyboard('{ArrowRight}');
    expect(title()).toBe('The final screen');

    await userEvent.keyboard('{ArrowLeft}');
    expect(title()).toBe('Step 3 of 3: Click the first result');
    await userEvent.click(screen.getByTestId('step-prev'));
    expect(title()).toBe('Step 2 of 3: Search for coffee');

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('step-viewer')).not.toBeInTheDocument();
  });

  it('Escape in the large view closes only the view: the steps sheet around it sees it handled', async () => {
    api.getRecording.mockResolvedValue(recording());
    render(Replay, { turnId: 'turn_1' });
    await waitFor(() => expect(screen.getAllByTestId('replay-shot')).toHaveLength(3));
    await userEvent.click(screen.getByRole('button', { name: 'See the screen of step 1 large' }));
    // The sheet closes on an Escape nobody handled before it (TaskSheet's key()).
    const seen: boolean[] = [];
    const sheet = (e: KeyboardEvent) => { if (e.key === 'Escape') seen.push(e.defaultPrevented); };
    document.body.addEventListener('keydown', sheet);
    await userEvent.keyboard('{Escape}');
    document.body.removeEventListener('keydown', sheet);
    expect(screen.queryByTestId('step-viewer')).not.toBeInTheDocument();
    expect(seen).toEqual([true]);
  });

  it('says when the final screen was not recorded', async () => {
    api.getRecording.mockResolvedValue(recording(steps.slice(0, 3)));
    render(Replay, { turnId: 'turn_1' });
    await screen.findAllByTestId('replay-step');
    expect(screen.getByText('The final screen was not recorded.')).toBeInTheDocument();
  });

  it('explains how to record a task that was not', async () => {
    api.getRecording.mockResolvedValue(recording([], false));
    render(Replay, { turnId: 'turn_1' });
    expect(await screen.findByTestId('replay-not-recorded')).toHaveTextContent('Turn on “Record steps”');
    expect(api.stepScreenshot).not.toHaveBeenCalled();
  });

  it('shows why the steps could not be read', async () => {
    api.getRecording.mockRejectedValue(new ApiError({
      code: 'network', title: 'The service could not be reached', detail: 'Check your internet connection and try again.',
      retryAt: null, action: 'retry',
    }));
    render(Replay, { turnId: 'turn_1' });
    expect(await screen.findByTestId('replay-error')).toHaveTextContent('The service could not be reached');
  });
});
