import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Receipt } from '../../api';
import { speak } from '../../i18n';
import { receiptWords } from './words';
import ReceiptCard from './ReceiptCard.svelte';

const done: Receipt = {
  item: 0,
  outcome: 'done',
  why: null,
  judged: 'answer',
  touched: [
    { kind: 'app', name: 'Browser' },
    { kind: 'site', host: 'weather.com' },
    { kind: 'deleted', deletion: { kind: 'folder', name: 'drafts', place: { kind: 'within', folders: ['Documents'] } } },
    { kind: 'purchase', title: 'Confirm the purchase' },
  ],
  seconds: 42,
  costUsd: 0.04,
  startedMs: 1_000,
  filmId: null,
};

afterEach(() => speak('en'));

describe('a receipt in words', () => {
  it('says the outcome, how it was told, what was touched, the time and the cost', () => {
    const w = receiptWords(done);
    expect(w.outcome).toBe('Done');
    expect(w.why).toBeNull();
    expect(w.judged).toBe('Read from how the task ended and the agent’s answer');
    expect(w.touched).toEqual([
      'Opened Browser',
      'Visited weather.com',
      'Deleted the folder drafts in Documents',
      'Approved a purchase: Confirm the purchase',
    ]);
    expect(w.figures).toEqual(['Took 42 sec', 'Cost $0.04']);
  });

  it('says why a task is not done, and leaves out what is not known', () => {
    const w = receiptWords({ ...done, outcome: 'notDone', why: 'declined', judged: 'check', touched: [], seconds: null, costUsd: null });
    expect([w.outcome, w.why, w.judged]).toEqual(['Not done', 'You declined what it asked.', 'Checked by the service against your words']);
    expect(w.figures).toEqual([]);
  });

  it('has every word in German', () => {
    speak('de');
    const w = receiptWords({ ...done, outcome: 'partly', why: 'answerSaysNotAll' });
    expect(w.outcome).toBe('Teilweise erledigt');
    expect(w.touched[0]).toBe('Browser geöffnet');
    expect(w.touched[2]).toBe('Ordner drafts in Documents gelöscht');
  });

  it('shows nothing touched plainly rather than an empty list', () => {
    render(ReceiptCard, { receipt: { ...done, touched: [] } });
    expect(screen.getByTestId('receipt-touched-none')).toHaveTextContent('Nothing Porthole could see');
    expect(screen.getByTestId('receipt-outcome')).toHaveTextContent('Done');
    expect(screen.getByTestId('receipt-figures')).toHaveTextContent('Took 42 sec · Cost $0.04');
    expect(screen.queryByTestId('receipt-film')).toBeNull();
  });

  it('offers "Watch again" on a task Porthole recorded, playing that task\'s film', async () => {
    const onwatch = vi.fn();
    render(ReceiptCard, { receipt: { ...done, filmId: '1700000000000' }, onwatch });
    await userEvent.click(screen.getByTestId('receipt-film'));
    expect(screen.getByTestId('receipt-film')).toHaveTextContent('Watch again');
    expect(onwatch).toHaveBeenCalledWith('1700000000000');
  });
});
