import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import FilmRedact from './FilmRedact.svelte';
import type { Film, FilmApi } from '../../api';

const film: Film = {
  id: '5',
  frames: [
    { atMs: 0, step: 1, title: 'Open Browser', narration: null },
    { atMs: 900, step: 2, title: 'Read the results', narration: null },
  ],
};

function fakeApi() {
  return {
    list: vi.fn(async () => [{ id: '5', startedMs: 1, frames: 2 }]),
    get: vi.fn(async () => film),
    frame: vi.fn(async (_c: string, _f: string, i: number) => `blob:frame-${i}`),
    redactions: vi.fn(async () => ({ hiddenFrames: [], areas: [] })),
    saveVideo: vi.fn(async () => 'Porthole task.webp'),
    showVideo: vi.fn(async () => null),
    settings: vi.fn(),
    setSettings: vi.fn(),
  };
}

const areas = () => screen.getByTestId('redact-count').getAttribute('data-areas');
const shownIndex = () => screen.getByTestId('redact-picture').getAttribute('data-index');
const box = () => {
  const b = screen.getByTestId('redact-box');
  return ['x', 'y', 'width', 'height'].map((k) => Number(b.getAttribute(`data-${k}`)));
};

/** Tab until the picture has the keyboard, as a person without a pointer gets there. */
async function tabToPicture() {
  const picture = screen.getByTestId('redact-picture');
  for (let i = 0; i < 10 && document.activeElement !== picture; i++) await userEvent.tab();
  expect(document.activeElement).toBe(picture);
}

async function opened() {
  const api = fakeApi();
  render(FilmRedact, { conversationId: 'c1', api: api as unknown as FilmApi });
  await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:frame-0'));
  return api;
}

describe('FilmRedact with the keyboard only', () => {
  URL.revokeObjectURL = vi.fn();

  it('puts a box on the picture, moves and sizes it with the arrows, and Enter hides what is under it', async () => {
    const api = await opened();
    const picture = screen.getByTestId('redact-picture');
    expect(picture).toHaveAttribute('tabindex', '0');
    expect(picture.getAttribute('aria-keyshortcuts')).toContain('Alt+ArrowRight');
    expect(document.getElementById(picture.getAttribute('aria-describedby')!)).toHaveTextContent('Enter puts a box');
    await tabToPicture();

    await userEvent.keyboard('{Enter}');
    expect(box()).toEqual([0.375, 0.375, 0.25, 0.25]);
    expect(screen.getByTestId('redact-box-status')).toHaveTextContent(
      'Box at 38% from the left and 38% from the top, 25% wide and 25% high.');
    // The arrows are the box's while it is shown: the picture stays the first.
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowLeft}');
    expect(shownIndex()).toBe('0');
    await userEvent.keyboard('{Shift>}{ArrowDown}{/Shift}');
    expect(box()).toEqual([0.395, 0.475, 0.25, 0.25]);
    // Alt (or Control) sizes it: wider, higher by a long step, and lower again.
    await userEvent.keyboard('{Alt>}{ArrowRight}{/Alt}{Alt>}{Shift>}{ArrowDown}{/Shift}{/Alt}{Control>}{ArrowUp}{/Control}');
    expect(box()).toEqual([0.395, 0.475, 0.27, 0.33]);
    expect(screen.getByTestId('redact-box-status')).toHaveTextContent('40% from the left and 48% from the top, 27% wide and 33% high');
    // It stays on the picture.
    await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}');
    expect(box()).toEqual([0.73, 0.475, 0.27, 0.33]);
    await userEvent.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(box()[2]).toBe(0.27);
    await userEvent.keyboard('{Shift>}{ArrowLeft}{ArrowLeft}{ArrowLeft}{/Shift}');

    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(areas()).toBe('1'));
    expect(screen.queryByTestId('redact-box')).toBeNull();
    expect(screen.getByTestId('redact-box-status')).toHaveTextContent('Hidden.');
    expect(screen.getByTestId('redact-area')).toHaveStyle({ left: '43%', width: '27%' });

    // With the box gone the arrows go through the pictures again.
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(shownIndex()).toBe('1'));
    await userEvent.keyboard('{ArrowLeft}');
    await waitFor(() => expect(shownIndex()).toBe('0'));

    await userEvent.click(screen.getByTestId('redact-save'));
    await waitFor(() => expect(api.saveVideo).toHaveBeenCalled());
    expect(api.saveVideo).toHaveBeenCalledWith('c1', '5', {
      hiddenFrames: [],
      areas: [{ frame: 0, x: 0.43, y: 0.475, width: 0.27, height: 0.33 }],
      strokes: [],
    }, true);
  });

  it('Escape takes the box away and leaves the sheet open; Ctrl+Z takes back what Enter hid', async () => {
    await opened();
    const escaped = vi.fn();
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') escaped(); });
    await tabToPicture();

    await userEvent.keyboard('{Enter}{ArrowDown}{Escape}');
    expect(screen.queryByTestId('redact-box')).toBeNull();
    expect(escaped).not.toHaveBeenCalled();
    expect(screen.getByTestId('redact-box-status')).toHaveTextContent('nothing was hidden');
    expect(areas()).toBe('0');
    // Without a box, Escape is the sheet's again.
    await userEvent.keyboard('{Escape}');
    expect(escaped).toHaveBeenCalledTimes(1);

    // Hidden on every picture when asked, as a drag is.
    await userEvent.click(screen.getByTestId('redact-everywhere'));
    await tabToPicture();
    await userEvent.keyboard('{Enter}{Enter}');
    await waitFor(() => expect(areas()).toBe('1'));
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(shownIndex()).toBe('1'));
    expect(screen.getAllByTestId('redact-area')).toHaveLength(1);
    await userEvent.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(areas()).toBe('0'));
  });

  it('"Hide a part…" puts the box on the picture and gives it the keyboard', async () => {
    await opened();
    await userEvent.click(screen.getByTestId('redact-hide-part'));
    expect(document.activeElement).toBe(screen.getByTestId('redact-picture'));
    expect(box()).toEqual([0.375, 0.375, 0.25, 0.25]);
    // Another picture takes the box away: it was placed on this one.
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(shownIndex()).toBe('1'));
    expect(screen.queryByTestId('redact-box')).toBeNull();
    // A picture hidden whole has no part to hide.
    await userEvent.click(screen.getByTestId('redact-hide-frame'));
    expect(screen.getByTestId('redact-hide-part')).toBeDisabled();
  });
});
