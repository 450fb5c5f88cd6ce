// What a check's verdict reads as in the window. The service may call a check "passed" at any
// likelihood; a person reads "Passed" as settled, so under 0.7 it reads "Not sure" (in amber).
// A "did not pass" near the middle (over 0.3) is no more settled, and reads "Not sure" too.
export type ShownVerdict = 'passed' | 'failed' | 'unverifiable' | 'unsure';

/** The lowest likelihood the window calls a pass. */
export const SURE = 0.7;
/** At or under this, a check that did not pass is a clear no. */
export const SURE_NOT = 0.3;

export function shownVerdict(verdict: string, score: number | null | undefined): ShownVerdict {
  const known = score !== null && score !== undefined;
  if (verdict === 'passed') return known && score < SURE ? 'unsure' : 'passed';
  if (verdict === 'failed') return known && score > SURE_NOT && score < SURE ? 'unsure' : 'failed';
  return 'unverifiable';
}

/** The whole judgement as shown: not a pass while any check is unsure, and not a plain
 *  "did not pass" when every check that did not pass is unsure. */
export function shownOverall(verdict: string, criteria: { verdict: string; score?: number | null }[]): ShownVerdict {
  const shown = criteria.map((c) => shownVerdict(c.verdict, c.score));
  if (verdict === 'passed') return shown.includes('unsure') ? 'unsure' : 'passed';
  if (verdict === 'failed') return shown.includes('failed') || !shown.includes('unsure') ? 'failed' : 'unsure';
  return 'unverifiable';
}
