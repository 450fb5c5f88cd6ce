// The service's screenshots of a recorded task's steps, shown on the film's redaction sheet
// (FilmRedact) as if they were a film's frames: one sheet for every picture a report carries.
// A screenshot is named by its step's `index` as the service numbers it (what Rust paints by),
// so each step sits at that place among the frames; a step without a screenshot is a gap the
// sheet never shows (it shows only the places it is given).
import { filmApi, type FilmApi, type FilmFrame, type ServiceShot, type ServiceSteps } from '../../api';
import { t } from '../../i18n';

/** The sheet's source and the places it shows, for the steps of `steps`; `screenshot` reads a
 * step's picture as a URL the sheet lets go when it moves on. */
export function stepsSheet(
  steps: ServiceSteps,
  screenshot: (turnId: string, index: number) => Promise<string>,
): { api: FilmApi; film: { filmId: string; frames: number[] } } {
  const frames: FilmFrame[] = [];
  for (const shot of steps.steps) {
    while (frames.length < shot.index) frames.push({ atMs: null, step: null, title: null, narration: null });
    frames[shot.index] = { atMs: null, step: shot.number, title: caption(shot), narration: shot.rationale || null };
  }
  const api: FilmApi = {
    ...filmApi,
    list: async () => [],
    get: async () => ({ id: steps.turnId, frames }),
    // What the sheet starts with: a step that types a password, hidden whole (Rust says which).
    redactions: async () => steps.suggested,
    frame: (_conversationId, _filmId, index) => screenshot(steps.turnId, index),
    // The sheet saves the report (its `onsave`), never a video of the steps.
    saveVideo: () => Promise.reject(new Error('the steps are not a film')),
  };
  return { api, film: { filmId: steps.turnId, frames: steps.steps.map((s) => s.index) } };
}

/** "2. Type the request", or "The final screen", as the Steps sheet says it. */
function caption(shot: ServiceShot): string {
  return shot.number === null
    ? t('replay.finalScreen')
    : t('replay.stepTitle', { number: shot.number, title: shot.title });
}
