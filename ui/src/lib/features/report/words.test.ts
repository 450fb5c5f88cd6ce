import { afterEach, describe, expect, it } from 'vitest';
import { reportWords } from './words';
import { intl, speak } from '../../i18n';

// 26 November 2026, 14:05 UTC.
const made = Date.UTC(2026, 10, 26, 14, 5);

describe('the report’s date and cost, by Intl', () => {
  afterEach(() => speak('en'));

  it('says when it was made in the person’s time zone, named, and the cost as the window does', () => {
    // "02:05 PM", as the app writes every time of day (intl.clock), never a second "2:05 PM".
    expect(reportWords(0.5234, made, 'UTC')).toEqual({
      madeAt: expect.stringMatching(/^November 26, 2026 at 02:05\sPM UTC$/),
      cost: '$0.52',
    });
    expect(reportWords(1234.5, made, 'America/New_York').madeAt).toMatch(/^November 26, 2026 at 09:05\sAM EST$/);
    const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(reportWords(null, made, here).madeAt).toContain(intl.clock(made));
    expect(reportWords(1234.5, made).cost).toBe('$1,234.50');
    // Never a cost that rounds to nothing.
    expect(reportWords(0.004, made).cost).toBe('< $0.01');
    expect(reportWords(0, made).cost).toBe('$0.00');
    expect(reportWords(null, made).cost).toBeNull();
  });

  it('says the same in German', () => {
    speak('de');
    expect(reportWords(0.5234, made, 'Europe/Berlin')).toEqual({
      madeAt: '26. November 2026 um 15:05 MEZ',
      cost: '0,52\u00a0$',
    });
    expect(reportWords(1_234_567.891, made, 'UTC')).toEqual({
      madeAt: '26. November 2026 um 14:05 UTC',
      cost: '1.234.567,89\u00a0$',
    });
    expect(reportWords(0.004, made).cost).toBe('< 0,01\u00a0$');
  });
});
