import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import FilmRedact from './FilmRedact.svelte';
import type { Film, FilmApi } from '../../api';

const film: Film = {
  id: '5',
  frames: [
    { atMs: 0, step: 1, title: 'Open Browser', narration: null },
    { atMs: 900, step: 2, title: 'Enter your password', narration: null },
    { atMs: 1900, step: 3, title: 'Read the results', narration: null },
  ],
};

function fakeApi() {
  return {
    list: vi.fn(async () => [{ id: '5', startedMs: 1, frames: 3 }]),
    get: vi.fn(async () => film),
    frame: vi.fn(async (_c: string, _f: string, i: number) => `blob:frame-${i}`),
    redactions: vi.fn(async () => ({ hiddenFrames: [1], areas: [] })),
    saveVideo: vi.fn(async () => 'Porthole task.webp'),
    showVideo: vi.fn(async () => null),
    settings: vi.fn(),
    setSettings: vi.fn(),
  };
}

/** A drag over the picture, drawn 200 × 100 at the page's corner, in its pixels. */
async function drag(from: [number, number], to: [number, number]) {
  const picture = screen.getByTestId('redact-picture');
  picture.getBoundingClientRect = () => ({ left: 0, top: 0, width: 200, height: 100, right: 200, bottom: 100, x: 0, y: 0, toJSON: () => ({}) });
  await fireEvent.pointerDown(picture, { clientX: from[0], clientY: from[1], button: 0, pointerId: 1 });
  await fireEvent.pointerMove(picture, { clientX: to[0], clientY: to[1], pointerId: 1 });
  await fireEvent.pointerUp(picture, { clientX: to[0], clientY: to[1], pointerId: 1 });
}

const areas = () => screen.getByTestId('redact-count').getAttribute('data-areas');

describe('FilmRedact', () => {
  URL.revokeObjectURL = vi.fn();

  it('hides what is dragged over, takes it back with Undo, and saves what is hidden', async () => {
    const api = fakeApi();
    render(FilmRedact, { conversationId: 'c1', api: api as unknown as FilmApi });
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:frame-0'));
    expect(screen.queryByTestId('redact-whole')).toBeNull();

    await drag([20, 10], [120, 60]);
    await waitFor(() => expect(areas()).toBe('1'));
    expect(screen.getAllByTestId('redact-area')).toHaveLength(1);
    await drag([150, 70], [190, 90]);
    await waitFor(() => expect(areas()).toBe('2'));
    await userEvent.click(screen.getByTestId('redact-undo'));
    await waitFor(() => expect(areas()).toBe('1'));
    // A click is not an area.
    await drag([50, 50], [50, 50]);
    expect(areas()).toBe('1');

    // The password step's picture starts hidden, and says why.
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(screen.getByTestId('redact-whole')).toHaveTextContent('types a password'));
    expect(screen.getByTestId('redact-hide-frame')).toHaveAttribute('aria-pressed', 'true');
    // The area drawn on the first picture is not on this one.
    expect(screen.queryAllByTestId('redact-area')).toHaveLength(0);

    await userEvent.click(screen.getByTestId('redact-save'));
    await waitFor(() => expect(screen.getByTestId('redact-saved')).toHaveTextContent('Porthole task.webp'));
    expect(api.saveVideo).toHaveBeenCalledWith('c1', '5', {
      hiddenFrames: [1],
      areas: [{ frame: 0, x: 0.1, y: 0.1, width: 0.5, height: 0.5 }],
      strokes: [],
    }, true);
    await userEvent.click(screen.getByTestId('redact-show'));
    expect(api.showVideo).toHaveBeenCalled();

    // Captions are on unless the person leaves them out; leaving them out asks for a new file.
    expect(screen.getByTestId('redact-captions')).toBeChecked();
    await userEvent.click(screen.getByTestId('redact-captions'));
    expect(screen.queryByTestId('redact-saved')).toBeNull();
    await userEvent.click(screen.getByTestId('redact-save'));
    await waitFor(() => expect(api.saveVideo).toHaveBeenLastCalledWith('c1', '5', expect.anything(), false));
  });

  it('shows a hidden picture again, and Undo hides it once more', async () => {
    const api = fakeApi();
    render(FilmRedact, { conversationId: 'c1', api: api as unknown as FilmApi });
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toBeTruthy());
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(screen.getByTestId('redact-whole')).toBeTruthy());
    await userEvent.click(screen.getByTestId('redact-hide-frame'));
    expect(screen.queryByTestId('redact-whole')).toBeNull();
    await userEvent.click(screen.getByTestId('redact-undo'));
    await waitFor(() => expect(screen.getByTestId('redact-whole')).toBeTruthy());
    // An area for every picture shows on each.
    await userEvent.click(screen.getByTestId('redact-previous'));
    await userEvent.click(screen.getByTestId('redact-everywhere'));
    await drag([0, 0], [20, 100]);
    await userEvent.click(screen.getByTestId('redact-next'));
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(screen.getByTestId('redact-picture')).toHaveAttribute('data-index', '2'));
    expect(screen.getAllByTestId('redact-area')).toHaveLength(1);
  });

  it('paints with the brush: a stroke follows the pointer, Undo takes back the whole stroke', async () => {
    const api = fakeApi();
    render(FilmRedact, { conversationId: 'c1', api: api as unknown as FilmApi });
    await waitFor(() => expect(screen.getByTestId('redact-frame')).toHaveAttribute('src', 'blob:frame-0'));
    await userEvent.click(screen.getByTestId('redact-tool-brush'));
    await userEvent.selectOptions(screen.getByTestId('redact-brush-size'), 'large');
    const picture = screen.getByTestId('redact-picture');
    picture.getBoundingClientRect = () => ({ left: 0, top: 0, width: 200, height: 100, right: 200, bottom: 100, x: 0, y: 0, toJSON: () => ({}) });
    const strokes = () => screen.getByTestId('redact-count').getAttribute('data-strokes');
    /** Pointer down, through `path`, up: one stroke. */
    async function paint(path: [number, number][]) {
      const [first, ...rest] = path;
      await fireEvent.pointerDown(picture, { clientX: first[0], clientY: first[1], button: 0, pointerId: 1 });
      for (const [x, y] of rest) await fireEvent.pointerMove(picture, { clientX: x, clientY: y, pointerId: 1 });
      await fireEvent.pointerUp(picture, { clientX: rest.at(-1)![0], clientY: rest.at(-1)![1], pointerId: 1 });
    }
    // A moves too small to matter (under a quarter of the brush) adds no point.
    await paint([[20, 20], [21, 20], [60, 20], [100, 60]]);
    await waitFor(() => expect(strokes()).toBe('1'));
    expect(screen.getAllByTestId('redact-stroke')).toHaveLength(1);
    expect(screen.getByTestId('redact-count')).toHaveAttribute('data-areas', '0');
    await paint([[150, 80], [190, 90]]);
    await waitFor(() => expect(strokes()).toBe('2'));
    expect(screen.getByTestId('redact-count')).toHaveTextContent('2 parts hidden');
    // Undo takes back the last stroke whole, not its last point.
    await userEvent.click(screen.getByTestId('redact-undo'));
    await waitFor(() => expect(strokes()).toBe('1'));
    expect(screen.getAllByTestId('redact-stroke')).toHaveLength(1);
    // Painted on this picture only: the next shows none.
    await userEvent.click(screen.getByTestId('redact-next'));
    await waitFor(() => expect(screen.getByTestId('redact-picture')).toHaveAttribute('data-index', '1'));
    expect(screen.queryAllByTestId('redact-stroke')).toHaveLength(0);

    await userEvent.click(screen.getByTestId('redact-save'));
    await waitFor(() => expect(api.saveVideo).toHaveBeenCalled());
    expect(api.saveVideo).toHaveBeenCalledWith('c1', '5', {
      hiddenFrames: [1],
      areas: [],
      strokes: [{ frame: 0, size: 0.08, points: [[0.1, 0.2], [0.3, 0.2], [0.5, 0.6]] }],
    }, true);
  });
});
