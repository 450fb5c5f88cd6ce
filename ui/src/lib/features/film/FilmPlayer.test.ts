import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import FilmPlayer from './FilmPlayer.svelte';
import type { Film, FilmApi } from '../../api';

const film: Film = {
  id: '5',
  frames: [
    { atMs: 0, step: null, title: null, narration: 'Opening the browser' },
    { atMs: 900, step: 1, title: 'Search the web', narration: 'Looking it up' },
    { atMs: 1900, step: null, title: 'Search the web', narration: 'Looking it up' },
    { atMs: 2500, step: 2, title: 'Read the forecast', narration: 'Found it' },
  ],
};

function fakeApi(): FilmApi {
  return {
    list: vi.fn(async () => [{ id: '5', startedMs: 1, frames: 4 }]),
    get: vi.fn(async () => film),
    frame: vi.fn(async (_c: string, _f: string, i: number) => `blob:frame-${i}`),
    settings: vi.fn(),
    setSettings: vi.fn(),
  } as unknown as FilmApi;
}

const shown = () => screen.getByTestId('film-frame').getAttribute('data-index');

describe('FilmPlayer', () => {
  URL.revokeObjectURL = vi.fn();

  it('shows the film with its captions, and a step mark jumps to its step', async () => {
    render(FilmPlayer, { conversationId: 'c1', api: fakeApi() });
    await waitFor(() => expect(shown()).toBe('0'));
    expect(screen.getByTestId('film-frame')).toHaveAttribute('src', 'blob:frame-0');
    expect(screen.getByTestId('film-captions')).toHaveTextContent('Opening the browser');
    const marks = screen.getAllByTestId('film-step-mark');
    expect(marks.map((m) => m.getAttribute('data-index'))).toEqual(['1', '3']);
    expect(marks[1]).toHaveAccessibleName('Go to step 2: Read the forecast');
    await userEvent.click(marks[1]);
    await waitFor(() => expect(shown()).toBe('3'));
    expect(screen.getByTestId('film-title')).toHaveTextContent('Read the forecast');
    expect(screen.getByTestId('film-time')).toHaveTextContent('0:03 / 0:03');
  });

  it('moves a picture with ← →, a step with Shift, and plays with space', async () => {
    render(FilmPlayer, { conversationId: 'c1', api: fakeApi() });
    await waitFor(() => expect(shown()).toBe('0'));
    screen.getByTestId('film').focus();
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(shown()).toBe('1'));
    await userEvent.keyboard('{Shift>}{ArrowRight}{/Shift}');
    await waitFor(() => expect(shown()).toBe('3'));
    await userEvent.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    await waitFor(() => expect(shown()).toBe('1'));
    await userEvent.keyboard('{ArrowLeft}');
    await waitFor(() => expect(shown()).toBe('0'));
    await userEvent.click(screen.getByTestId('film-speed-4'));
    expect(screen.getByTestId('film-speed-4')).toHaveAttribute('aria-pressed', 'true');
    screen.getByTestId('film').focus();
    await userEvent.keyboard(' ');
    expect(screen.getByTestId('film-play')).toHaveAttribute('aria-pressed', 'true');
    // At 4× the film's 2.5 s play in well under a second, and it stops at its end.
    await waitFor(() => expect(shown()).toBe('3'), { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('film-play')).toHaveAttribute('aria-pressed', 'false'));
  });

  it('says so when the task has no film', async () => {
    const api = fakeApi();
    api.list = vi.fn(async () => []);
    render(FilmPlayer, { conversationId: 'c1', api });
    expect(await screen.findByTestId('film-none')).toHaveTextContent('no recording');
  });
});
