// The window's shell in German: the sidebar's rows, the status chip, the error banner and the
// live screen's overlay speak the page's language, and change in place when it changes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import MachineItem from './MachineItem.svelte';
import StatusChip from './StatusChip.svelte';
import ErrorBanner from './ErrorBanner.svelte';
import WaitingList from './WaitingList.svelte';
import LiveGrid from '../live/LiveGrid.svelte';
import { conversation, machine } from '../../tests/fake-api';
import { taskView } from '../task-view';
import { speak } from '../i18n';
import { wordsFor, Code } from '../ui-error';
import { computerStatus } from '../computer-state';

afterEach(() => {
  speak('en');
  vi.useRealTimers();
});

describe('the shell in German', () => {
  it('says a computer’s kind, state and way out in German, and back in English at once', () => {
    speak('de');
    const asleep = machine({ availability: 'asleep', canWake: true, name: 'Recherche' });
    render(MachineItem, { machine: asleep, computer: computerStatus(asleep), selected: false, onSelect: () => {}, onWake: () => {} });
    expect(screen.getByTestId('machine-kind')).toHaveTextContent('Cloud-Computer');
    expect(screen.getByTestId('machine-status')).toHaveTextContent('Schläft');
    expect(screen.getByTestId('wake-button')).toHaveTextContent('Aufwecken');
    expect(screen.getByTestId('wake-button')).toHaveAccessibleName('Recherche aufwecken');

    speak('en');
    flushSync();
    expect(screen.getByTestId('machine-kind')).toHaveTextContent('Cloud computer');
    expect(screen.getByTestId('wake-button')).toHaveAccessibleName('Wake Recherche');
  });

  it('words the task’s state in German', () => {
    speak('de');
    render(StatusChip, { chip: taskView(conversation({ status: 'needsApproval' })).chip });
    expect(screen.getByTestId('status-chip')).toHaveTextContent('Braucht deine Zustimmung');
  });

  it('says when a limit lifts, the clock and the countdown in German', () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 26, 13, 0, 0));
    const retryAt = Date.UTC(2026, 10, 26, 13, 1, 5);
    const error = { ...wordsFor(Code.unexpected), action: 'waitUntil' as const, retryAt };
    render(ErrorBanner, { error, onDismiss: () => {} });
    const english = screen.getByTestId('error-banner-reset').textContent ?? '';
    expect(english).toMatch(/^\s*Available again at .+ — in 1 min 05 sec\s*$/);

    speak('de');
    flushSync();
    const german = screen.getByTestId('error-banner-reset').textContent ?? '';
    expect(german).toMatch(/^\s*Wieder verfügbar um \d\d:\d\d – in 1 Min\., 05 Sek\.\s*$/);
    expect(screen.getByTestId('error-banner-dismiss')).toHaveAccessibleName('Ausblenden');
  });

  it('quotes a waiting message the German way', () => {
    speak('de');
    render(WaitingList, { waiting: [{ id: 'w1', request: { text: 'Rechnungen holen' } }] as never, onRemove: () => {} });
    expect(screen.getByTestId('waiting-remove')).toHaveAccessibleName('„Rechnungen holen“ aus der Warteliste entfernen');
  });

  it('names the live screens dialog in German', () => {
    speak('de');
    render(LiveGrid, { computers: { status: () => computerStatus(null), wake: async () => {}, liveSaw: () => {} }, onclose: () => {} });
    expect(screen.getByTestId('live-grid')).toHaveAccessibleName('Alle Live-Bildschirme');
    expect(screen.getByTestId('live-grid-close')).toHaveAccessibleName('Schließen');
  });
});
