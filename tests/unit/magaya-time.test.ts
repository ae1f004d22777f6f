/** Magaya's date parameters: the wall time in the zone Magaya's server reads dates in (MAGAYA_TIME_ZONE). */
import { describe, expect, it } from 'vitest';
import { magayaTime } from '~/server/provider/magaya/session';

describe('magayaTime', () => {
  const noonUtc = new Date('2026-07-01T12:00:00.750Z');

  it('when no zone is given, then the time is written in UTC, to the second', () => {
    expect(magayaTime(noonUtc)).toBe('2026-07-01T12:00:00');
  });

  it("when Magaya's server is in another zone, then the time is that zone's wall time, summer time included", () => {
    expect(magayaTime(noonUtc, 'America/New_York')).toBe('2026-07-01T08:00:00');
    expect(magayaTime(noonUtc, 'Europe/Amsterdam')).toBe('2026-07-01T14:00:00');
    expect(magayaTime(noonUtc, 'America/Paramaribo')).toBe('2026-07-01T09:00:00');
    expect(magayaTime(new Date('2026-12-31T23:30:00Z'), 'Europe/Amsterdam')).toBe(
      '2027-01-01T00:30:00',
    );
  });
});
