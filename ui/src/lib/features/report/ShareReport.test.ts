import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ShareReport from './ShareReport.svelte';
import type { ReportApi } from './api';
import { ApiError } from '../../ui-error';
import { uiError } from '../../../tests/fake-api';
import { speak } from '../../i18n';
import type { FilmApi, Receipt } from '../../api';

function fake(share: ReportApi['share'], costUsd: number | null = 0.5234, receipt: Receipt | null = null): ReportApi {
  return {
    share, cost: vi.fn(async () => costUsd), receipt: vi.fn(async () => receipt), pictures: vi.fn(async () => null),
    screenshot: vi.fn(async (_t: string, i: number) => `blob:step-${i}`),
    open: vi.fn(async () => null), showFile: vi.fn(async () => null),
  } as unknown as ReportApi;
}

describe('ShareReport', () => {
  afterEach(() => speak('en'));

  it('saves a report without pictures at once, names the file and offers to open it', async () => {
    const api = fake(vi.fn(async () => ({ fileName: 'Porthole report.html', pdfFileName: null })));
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1' });
    await userEvent.click(screen.getByTestId('share-report-save'));
    expect(api.cost).toHaveBeenCalledWith('c1', 't1');
    // The file's date and cost, worded here by Intl: the Rust side only carries them.
    expect(api.share).toHaveBeenCalledWith({
      conversationId: 'c1', turnId: 't1', hidden: null,
      words: {
        madeAt: expect.stringMatching(/^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s[AP]M \S+$/),
        cost: '$0.52',
      },
    });
    expect(screen.getByTestId('share-report-saved')).toHaveTextContent('Porthole report.html');
    // No PDF from this system: the browser's Print makes one.
    expect(screen.getByTestId('share-report-saved')).toHaveTextContent('To make a PDF, open it and choose Print.');
    await userEvent.click(screen.getByTestId('share-report-open'));
    expect(api.open).toHaveBeenCalled();
    // Where it is, shown in the file manager rather than said as a path.
    await userEvent.click(screen.getByTestId('share-report-show'));
    expect(api.showFile).toHaveBeenCalled();
  });

  it('names the PDF printed beside it, where the system printed one', async () => {
    const api = fake(vi.fn(async () => ({ fileName: 'Porthole report.html', pdfFileName: 'Porthole report.pdf' })));
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1' });
    await userEvent.click(screen.getByTestId('share-report-save'));
    const saved = screen.getByTestId('share-report-saved');
    expect(saved).toHaveTextContent('and as a PDF, “Porthole report.pdf”, beside it.');
    expect(saved).not.toHaveTextContent('choose Print');
  });

  it('says nothing when the person cancels the dialog', async () => {
    const api = fake(vi.fn(async () => null));
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1' });
    await userEvent.click(screen.getByTestId('share-report-save'));
    expect(screen.queryByTestId('share-report-saved')).toBeNull();
    expect(screen.queryByTestId('share-report-error')).toBeNull();
  });

  it('says why the report was not saved', async () => {
    const error = uiError({ code: 'report_not_saved', title: 'Couldn’t save the report', action: 'retry' });
    const api = fake(vi.fn(async () => { throw new ApiError(error); }));
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1' });
    await userEvent.click(screen.getByTestId('share-report-save'));
    expect(screen.getByTestId('share-report-error')).toHaveTextContent('Couldn’t save the report');
  });

  it('words the date and cost in German when the page speaks German, and says no cost when none was reported', async () => {
    speak('de');
    const api = fake(vi.fn(async () => null), null);
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1' });
    await userEvent.click(screen.getByTestId('share-report-save'));
    expect(api.share).toHaveBeenCalledWith(expect.objectContaining({
      words: {
        madeAt: expect.stringMatching(/^\d{1,2}\. [A-Z][a-zä]+ \d{4} um \d{2}:\d{2} \S+$/),
        cost: null,
      },
    }));
  });

  it('opens the report with the receipt the thread shows, in its words, even without a turn id', async () => {
    const receipt: Receipt = {
      item: 0, outcome: 'partly', why: 'answerSaysNotAll', judged: 'answer',
      touched: [{ kind: 'app', name: 'Browser' }], seconds: 42, costUsd: 0.04, startedMs: 1, filmId: '1',
    };
    const api = fake(vi.fn(async () => null), 0.04, receipt);
    render(ShareReport, { api, conversationId: 'c1', turnId: null });
    await userEvent.click(screen.getByTestId('share-report-save'));
    expect(api.cost).toHaveBeenCalledWith('c1', null);
    expect(api.receipt).toHaveBeenCalledWith('c1');
    expect(api.share).toHaveBeenCalledWith(expect.objectContaining({
      conversationId: 'c1', turnId: null,
      words: expect.objectContaining({
        receipt: {
          outcome: 'partly', outcomeWords: 'Partly done', why: 'The agent’s answer says not all of it was done.',
          judged: 'Read from how the task ended and the agent’s answer', touched: ['Opened Browser'],
          figures: ['Took 42 sec', 'Cost $0.04'],
        },
      }),
    }));
  });

  it('says why when the cost cannot be read, and saves nothing', async () => {
    const error = uiError({ code: 'unknown_conversation', title: 'Conversation not found', action: 'newConversation' });
    const api = fake(vi.fn(async () => null));
    api.cost = vi.fn(async () => { throw new ApiError(error); });
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1' });
    await userEvent.click(screen.getByTestId('share-report-save'));
    expect(screen.getByTestId('share-report-error')).toHaveTextContent('Conversation not found');
    expect(api.share).not.toHaveBeenCalled();
  });

  it('shows the pictures the report carries first, and saves it with what the person hid', async () => {
    const api = fake(vi.fn(async () => ({ fileName: 'Porthole report.html', pdfFileName: null })));
    // The report keeps frames 0 and 2 of the film; its password step's picture (1) is not among them.
    api.pictures = vi.fn(async () => ({ kind: 'film' as const, filmId: '5', frames: [0, 2] }));
    const films = {
      list: vi.fn(async () => []),
      get: vi.fn(async () => ({ id: '5', frames: [
        { atMs: 0, step: 1, title: 'Open Browser', narration: null },
        { atMs: 900, step: 2, title: 'Enter your password', narration: null },
        { atMs: 1900, step: 3, title: 'Read the results', narration: null },
      ] })),
      frame: vi.fn(async (_c: string, _f: string, i: number) => `blob:frame-${i}`),
      redactions: vi.fn(async () => ({ hiddenFrames: [1], areas: [] })),
    } as unknown as FilmApi;
    URL.revokeObjectURL = vi.fn();
    render(ShareReport, { api, conversationId: 'c1', turnId: null, films });
    await userEvent.click(screen.getByTestId('share-report-save'));
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:frame-0'));
    expect(screen.getByTestId('share-report-redact')).toHaveTextContent('Hide before sharing');
    expect(screen.getByTestId('redact-intro')).toHaveTextContent('from Porthole\'s recording of the computer\'s screen');
    expect(api.share).not.toHaveBeenCalled();
    expect(films.list).not.toHaveBeenCalled();
    expect(screen.getByTestId('redact-position')).toHaveTextContent('1 of 2');
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:frame-2'));
    await userEvent.click(screen.getByTestId('redact-hide-frame'));
    await userEvent.click(screen.getByTestId('redact-save'));
    await waitFor(() => expect(screen.getByTestId('share-report-saved')).toHaveTextContent('Porthole report.html'));
    expect(api.share).toHaveBeenCalledWith(expect.objectContaining({
      conversationId: 'c1', turnId: null,
      hidden: { kind: 'film', filmId: '5', redactions: { hiddenFrames: [1, 2], areas: [], strokes: [] } },
    }));
    expect(screen.queryByTestId('share-report-redact')).toBeNull();
  });

  it('shows the service\'s screenshots of a recorded task first, its password step hidden, and saves what was hidden', async () => {
    const api = fake(vi.fn(async () => ({ fileName: 'Porthole report.html', pdfFileName: null })));
    // Step 1 (index 1) has no screenshot: the sheet never shows it.
    api.pictures = vi.fn(async () => ({
      kind: 'steps' as const, turnId: 't1',
      steps: [
        { index: 0, number: 1, title: 'Open Browser', rationale: 'The browser shows the site.' },
        { index: 2, number: 3, title: 'Enter your password', rationale: '' },
        { index: 3, number: null, title: '', rationale: '' },
      ],
      suggested: { hiddenFrames: [2], areas: [] },
    }));
    const films = { list: vi.fn(), get: vi.fn(), frame: vi.fn(), redactions: vi.fn() } as unknown as FilmApi;
    URL.revokeObjectURL = vi.fn();
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1', films });
    await userEvent.click(screen.getByTestId('share-report-save'));
    // The sheet, never a report saved at once; its pictures are the service's, said so.
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:step-0'));
    expect(api.screenshot).toHaveBeenCalledWith('t1', 0);
    expect(api.share).not.toHaveBeenCalled();
    expect(films.get).not.toHaveBeenCalled();
    expect(screen.getByTestId('redact-intro')).toHaveTextContent('the service\'s screenshots of each step');
    expect(screen.getByTestId('redact-position')).toHaveTextContent('1 of 3');
    expect(screen.getByTestId('share-report-redact')).toHaveTextContent('1. Open Browser');
    expect(screen.getByTestId('share-report-redact')).toHaveTextContent('The browser shows the site.');
    expect(screen.queryByTestId('redact-whole')).toBeNull();

    // An area dragged over the first screenshot, drawn 200 × 100 at the page's corner.
    const picture = screen.getByTestId('redact-picture');
    picture.getBoundingClientRect = () => ({ left: 0, top: 0, width: 200, height: 100, right: 200, bottom: 100, x: 0, y: 0, toJSON: () => ({}) });
    await fireEvent.pointerDown(picture, { clientX: 20, clientY: 10, button: 0, pointerId: 1 });
    await fireEvent.pointerMove(picture, { clientX: 120, clientY: 60, pointerId: 1 });
    await fireEvent.pointerUp(picture, { clientX: 120, clientY: 60, pointerId: 1 });
    await waitFor(() => expect(screen.getByTestId('redact-count')).toHaveAttribute('data-areas', '1'));

    // The password step starts hidden, and says why; the final screen last.
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:step-2'));
    expect(screen.getByTestId('redact-whole')).toHaveTextContent('types a password');
    expect(screen.getByTestId('share-report-redact')).toHaveTextContent('3. Enter your password');
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:step-3'));
    expect(screen.getByTestId('share-report-redact')).toHaveTextContent('The final screen');

    await userEvent.click(screen.getByTestId('redact-save'));
    await waitFor(() => expect(screen.getByTestId('share-report-saved')).toHaveTextContent('Porthole report.html'));
    expect(api.share).toHaveBeenCalledWith(expect.objectContaining({
      conversationId: 'c1', turnId: 't1',
      hidden: {
        kind: 'steps', turnId: 't1',
        redactions: { hiddenFrames: [2], areas: [{ frame: 0, x: 0.1, y: 0.1, width: 0.5, height: 0.5 }], strokes: [] },
      },
    }));
    expect(screen.queryByTestId('share-report-redact')).toBeNull();
  });

  it('speaks of the service\'s screenshots in German too', async () => {
    speak('de');
    const api = fake(vi.fn(async () => null));
    api.pictures = vi.fn(async () => ({
      kind: 'steps' as const, turnId: 't1', steps: [{ index: 0, number: 1, title: 'Browser öffnen', rationale: '' }],
      suggested: { hiddenFrames: [], areas: [] },
    }));
    URL.revokeObjectURL = vi.fn();
    render(ShareReport, { api, conversationId: 'c1', turnId: 't1' });
    await userEvent.click(screen.getByTestId('share-report-save'));
    await waitFor(() => expect(screen.getByTestId('redact-intro')).toHaveTextContent('die Screenshots des Dienstes von jedem Schritt'));
    expect(api.share).not.toHaveBeenCalled();
  });
});
