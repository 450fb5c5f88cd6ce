import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ShareReport from './ShareReport.svelte';
import type { ReportApi } from './api';
import { ApiError } from '../../ui-error';
import { uiError } from '../../../tests/fake-api';
import { speak } from '../../i18n';
import type { FilmApi, Receipt } from '../../api';

function fake(share: ReportApi['share'], costUsd: number | null = 0.5234, receipt: Receipt | null = null): ReportApi {
  return {
    share, cost: vi.fn(async () => costUsd), receipt: vi.fn(async () => receipt), film: vi.fn(async () => null),
    open: vi.fn(async () => null), showFile: vi.fn(async () => null),
  } as unknown as ReportApi;
}

describe('ShareReport', () => {
  afterEach(() => speak('en'));

  it('saves the report, names the file and offers to open it', async () => {
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
    api.film = vi.fn(async () => ({ filmId: '5', frames: [0, 2] }));
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
      hidden: { filmId: '5', redactions: { hiddenFrames: [1, 2], areas: [], strokes: [] } },
    }));
    expect(screen.queryByTestId('share-report-redact')).toBeNull();
  });
});
