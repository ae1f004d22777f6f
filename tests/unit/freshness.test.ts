/** "Updated 3 minutes ago": the relative time in both languages and the staleness rule. */
import { afterEach, describe, expect, it } from 'vitest';
import { formatTimeAgo } from '~/shared/format';
import {
  describeFreshness,
  freshnessTickMs,
  isStale,
  shouldRecheck,
  syncCountsText,
} from '~/shared/sync';
import { readMessagesIn, restoreLocale } from '../support/messages-locale';

afterEach(restoreLocale);

const NOW = Date.parse('2026-11-23T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatTimeAgo', () => {
  it.each([
    [
      'en',
      [
        'now',
        'now',
        '1 minute ago',
        '3 minutes ago',
        '59 minutes ago',
        '1 hour ago',
        '5 hours ago',
        'yesterday',
        '3 days ago',
      ],
    ],
    [
      'nl',
      [
        'nu',
        'nu',
        '1 minuut geleden',
        '3 minuten geleden',
        '59 minuten geleden',
        '1 uur geleden',
        '5 uur geleden',
        'gisteren',
        '3 dagen geleden',
      ],
    ],
  ] as const)(
    'when the reader is %s, then the largest whole unit up to days: %j',
    (locale, texts) => {
      readMessagesIn(locale);
      const seconds = [
        0,
        59,
        MINUTE,
        3 * MINUTE + 59,
        59 * MINUTE + 59,
        HOUR,
        5 * HOUR + 30 * MINUTE,
        DAY + 5 * HOUR,
        3 * DAY,
      ];
      expect(seconds.map((age) => formatTimeAgo(ago(age), NOW))).toEqual(texts);
    },
  );

  it('when the moment lies a little after now (clocks apart), then it reads as now', () => {
    expect(formatTimeAgo(ago(-30), NOW)).toBe('now');
  });

  it('when the value is no date, then "not available" in the reader\'s language', () => {
    expect(formatTimeAgo('not a date', NOW)).toBe('N/A');
    readMessagesIn('nl');
    expect(formatTimeAgo('not a date', NOW)).toBe('n.v.t.');
  });

  it('when given a Date, a timestamp or an ISO string, then the same text', () => {
    const value = ago(3 * MINUTE);
    expect([
      formatTimeAgo(new Date(value), NOW),
      formatTimeAgo(Date.parse(value), new Date(NOW)),
      formatTimeAgo(value, NOW),
    ]).toEqual(Array(3).fill('3 minutes ago'));
  });
});

describe('isStale: older than three sync intervals', () => {
  it.each([
    [120, 0, false],
    [120, 359, false],
    [120, 360, false],
    [120, 361, true],
    [2, 6, false],
    [2, 7, true],
    [3600, 3 * HOUR + 1, true],
  ])(
    'when the interval is %i s and the last sync %i s ago, then stale is %s',
    (interval, age, stale) => {
      expect(isStale(ago(age), NOW, interval)).toBe(stale);
    },
  );

  it('when there never was a sync, then it is stale', () => {
    expect(isStale(null, NOW, 120)).toBe(true);
  });
});

describe('shouldRecheck: ask again before warning, at most once a sync interval', () => {
  it('when the shown time is fresh, then no new question', () => {
    expect(shouldRecheck(ago(100), NOW - 200_000, NOW, 120)).toBe(false);
  });

  it('when it looks stale and the page last asked an interval or more ago, then ask again', () => {
    expect(shouldRecheck(ago(400), NOW - 120_000, NOW, 120)).toBe(true);
  });

  it('when it looks stale but the page asked within the interval, then show the warning without asking', () => {
    expect(shouldRecheck(ago(400), NOW - 119_000, NOW, 120)).toBe(false);
  });
});

describe('describeFreshness', () => {
  it.each([
    ['en', 'Updated just now', 'Updated 3 minutes ago', 'Updated 1 hour ago'],
    ['nl', 'Zojuist bijgewerkt', 'Bijgewerkt 3 minuten geleden', 'Bijgewerkt 1 uur geleden'],
  ] as const)('when the reader is %s, then %j, %j, %j', (locale, justNow, minutes, hour) => {
    readMessagesIn(locale);
    expect(describeFreshness(ago(59), NOW, 120).text).toBe(justNow);
    expect(describeFreshness(ago(3 * MINUTE), NOW, 120).text).toBe(minutes);
    expect(describeFreshness(ago(HOUR), NOW, 120).text).toBe(hour);
  });

  it("when asked, then the exact time is the short date and time in the reader's language, and stale follows the rule", () => {
    const lastSyncedAt = new Date(2026, 10, 23, 8, 6).toISOString();
    const now = Date.parse(lastSyncedAt) + 10 * MINUTE * 1000;
    expect(describeFreshness(lastSyncedAt, now, 120)).toEqual({
      text: 'Updated 10 minutes ago',
      exact: 'Last synchronized on 11/23/26, 8:06 AM',
      stale: true,
    });
    readMessagesIn('nl');
    expect(describeFreshness(lastSyncedAt, now, 600)).toEqual({
      text: 'Bijgewerkt 10 minuten geleden',
      exact: 'Laatst gesynchroniseerd op 23-11-2026, 08:06',
      stale: false,
    });
  });
});

describe('freshnessTickMs', () => {
  it('when the sync interval is long, then every 30 seconds; when short, then every interval', () => {
    expect(freshnessTickMs(120)).toBe(30_000);
    expect(freshnessTickMs(2)).toBe(2_000);
  });
});

describe('syncCountsText', () => {
  it("when counts are shown, then they are formatted in the reader's language", () => {
    expect(syncCountsText(1234, 5)).toBe('Written: 1,234, removed: 5');
    readMessagesIn('nl');
    expect(syncCountsText(1234, 5)).toBe('Bijgewerkt: 1.234, verwijderd: 5');
  });
});
