import { describe, expect, it, vi } from 'vitest';
import { openFilms, Pictures } from './pictures.svelte';
import type { FilmApi } from '../../api';

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('pictures', () => {
  it('opens the asked film when listed, else the latest, and none when the list is unreadable', async () => {
    const list = vi.fn(async () => [{ id: 'a', startedMs: 1, frames: 2 }, { id: 'b', startedMs: 2, frames: 2 }]);
    expect((await openFilms({ list } as unknown as FilmApi, 'c1', 'a')).filmId).toBe('a');
    expect((await openFilms({ list } as unknown as FilmApi, 'c1', 'gone')).filmId).toBe('b');
    const broken = { list: vi.fn(async () => { throw new Error('no'); }) } as unknown as FilmApi;
    expect(await openFilms(broken, 'c1')).toEqual({ films: [], filmId: null });
  });

  it('reads the shown picture and the next ones in order, lets far ones go, and all of them for another film', async () => {
    const revoked: string[] = [];
    URL.revokeObjectURL = (u: string) => void revoked.push(u);
    const frame = vi.fn(async (_c: string, f: string, i: number) => `blob:${f}-${i}`);
    const pictures = new Pictures(frame, 2, 1);
    // The report's frames 0, 2 and 5 of the film, seen in that order.
    pictures.show('c1', 'f', [0, 2, 5], 0);
    await settle();
    expect(frame.mock.calls.map((c) => c[2])).toEqual([0, 2]);
    expect(pictures.urls).toEqual({ 0: 'blob:f-0', 2: 'blob:f-2' });
    pictures.show('c1', 'f', [0, 2, 5], 2);
    await settle();
    // Frame 0 is two places away: let go; 2 was read already.
    expect(revoked).toEqual(['blob:f-0']);
    expect(frame.mock.calls.map((c) => c[2])).toEqual([0, 2, 5]);
    pictures.show('c1', 'g', [0], 0);
    await settle();
    expect(revoked).toEqual(['blob:f-0', 'blob:f-2', 'blob:f-5']);
    expect(pictures.urls).toEqual({ 0: 'blob:g-0' });
    pictures.clear();
    expect(revoked.at(-1)).toBe('blob:g-0');
  });
});
