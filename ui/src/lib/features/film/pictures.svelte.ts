// What the film player and the redaction sheet both do with a conversation's films: find
// which to open, and read its pictures from Rust as object URLs a few at a time, letting far
// ones go (a long film's pictures together would fill the memory).
import type { FilmApi, FilmSummary } from '../../api';

/** The conversation's films and the one to open: `asked` when it is listed, else the latest.
 * A list that cannot be read is as good as none. */
export async function openFilms(
  api: Pick<FilmApi, 'list'>,
  conversationId: string,
  asked?: string,
): Promise<{ films: FilmSummary[]; filmId: string | null }> {
  const films = await api.list(conversationId).catch(() => []);
  return { films, filmId: films.find((f) => f.id === asked)?.id ?? films.at(-1)?.id ?? null };
}

/** One film's pictures as object URLs, by their index in the film. */
export class Pictures {
  urls = $state<Record<number, string>>({});
  /** The film `urls` holds pictures of (conversation and film). */
  #film = '';
  #frame: FilmApi['frame'];
  #ahead: number;
  #keep: number;

  /**
   * @param frame reads a picture (the component's api, read when called)
   * @param ahead pictures read from the one shown on, in order (it and the next ones)
   * @param keep pictures kept either side of the one shown; farther ones are let go
   */
  constructor(frame: FilmApi['frame'], ahead: number, keep: number) {
    this.#frame = frame;
    this.#ahead = ahead;
    this.#keep = keep;
  }

  /** Shows `order[at]` of the film (`order`: the film's indices in the order they are seen):
   * reads it and the next `ahead` not read yet, lets go of those farther than `keep` places.
   * Another film lets go of every picture first. */
  show(conversationId: string, filmId: string, order: number[], at: number) {
    const film = `${conversationId}/${filmId}`;
    if (film !== this.#film) {
      this.clear();
      this.#film = film;
    }
    const near = order.slice(Math.max(0, at - this.#keep), at + this.#keep + 1);
    for (const [k, url] of Object.entries(this.urls)) {
      if (!near.includes(Number(k))) {
        URL.revokeObjectURL(url);
        delete this.urls[Number(k)];
      }
    }
    void (async () => {
      for (const i of order.slice(at, at + this.#ahead)) {
        if (this.urls[i] || this.#film !== film) continue;
        try {
          const url = await this.#frame(conversationId, filmId, i);
          // Read twice over (a quick move back and forth), or for a film no longer shown.
          if (this.#film === film && !this.urls[i]) this.urls[i] = url;
          else URL.revokeObjectURL(url);
        } catch {
          // A missing picture shows as such; the film goes on.
        }
      }
    })();
  }

  /** Lets go of every picture (another film, or nothing shown any more). */
  clear() {
    for (const url of Object.values(this.urls)) URL.revokeObjectURL(url);
    this.urls = {};
    this.#film = '';
  }
}
