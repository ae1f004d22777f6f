import { afterEach, describe, expect, it } from 'vitest';
import {
  formatCount,
  formatCountry,
  formatCountdown,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatNumber,
  formatSizeLimit,
  formatTimeOfDay,
  formatVolume,
  formatWeight,
  rateLimitMessage,
  roleLabel,
  roleTitle,
  statusLabel,
  transportLabel,
  statusTone,
} from '~/shared/format';
import { readMessagesIn, restoreLocale } from '../support/messages-locale';

describe('formatDate', () => {
  it('when given a date, then MM/DD/YYYY with leading zeros', () => {
    expect(formatDate(new Date(2024, 2, 5))).toBe('03/05/2024');
    expect(formatDate(new Date(2023, 11, 31, 23, 59))).toBe('12/31/2023');
  });

  it('when given an ISO string (local time) or a timestamp, then the same format', () => {
    expect(formatDate('2024-07-04T12:00:00')).toBe('07/04/2024');
    expect(formatDate(new Date(2021, 0, 9).getTime())).toBe('01/09/2021');
  });

  it.each([null, undefined, '', 'not a date', Number.NaN])('when given %s, then N/A', (value) => {
    expect(formatDate(value)).toBe('N/A');
  });
});

describe('roleTitle', () => {
  it.each([
    ['admin', 'Admin'],
    ['viewer', 'Viewer'],
    ['admin-viewer', 'Admin-viewer'],
  ] as const)('when the role is %s, then %s', (role, expected) => {
    expect(roleTitle(role)).toBe(expected);
  });
});

describe('roleLabel', () => {
  it.each([
    ['admin', 'admin'],
    ['viewer', 'viewer'],
    ['admin-viewer', 'admin viewer'],
  ] as const)('when the role is %s, then %s', (role, expected) => {
    expect(roleLabel(role)).toBe(expected);
  });
});

describe('formatCountdown', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [59, '0:59'],
    [60, '1:00'],
    [61, '1:01'],
    [899, '14:59'],
    [900, '15:00'],
    [4.2, '0:05'],
    [-3, '0:00'],
  ])('when %s seconds remain, then %s', (seconds, expected) => {
    expect(formatCountdown(seconds)).toBe(expected);
  });
});

describe('rateLimitMessage', () => {
  it('when retryAfter is known, then the countdown message', () => {
    expect(rateLimitMessage(75)).toBe(
      'Too many login attempts. Please wait 1:15 before trying again.',
    );
    expect(rateLimitMessage(9)).toBe(
      'Too many login attempts. Please wait 0:09 before trying again.',
    );
  });

  it.each([undefined, 0, -1])('when retryAfter is %s, then the generic message', (retryAfter) => {
    expect(rateLimitMessage(retryAfter)).toBe('Too many login attempts. Please try again later.');
  });
});

describe('formatNumber, formatWeight, formatVolume', () => {
  it.each([
    [0, '0.000'],
    [12.5, '12.500'],
    [3.4125, '3.413'],
    [1234567.891, '1,234,567.891'],
    [-2, '-2.000'],
  ])('when the value is %s, then %s with 3 decimals', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY])(
    'when the value is %s, then 0',
    (value) => {
      expect(formatNumber(value)).toBe('0');
      expect(formatWeight(value)).toBe('0 lbs');
      expect(formatVolume(value)).toBe('0 ft³');
    },
  );

  it("when a weight or a volume, then suffixed ' lbs' or ' ft³'", () => {
    expect(formatWeight(41.25)).toBe('41.250 lbs');
    expect(formatVolume(3412.1)).toBe('3,412.100 ft³');
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [12345, '12,345'],
    [2.6, '3'],
    [null, '0'],
    [undefined, '0'],
    [Number.NaN, '0'],
  ])('when the count is %s, then %s with no decimals', (value, expected) => {
    expect(formatCount(value)).toBe(expected);
  });
});

describe('statusTone', () => {
  it.each([
    ['In-Transit', 'info'],
    ['in transit', 'info'],
    ['Delivered', 'success'],
    ['On-Hold', 'warning'],
    ['ON_HOLD', 'warning'],
    ['Cancelled', 'error'],
    ['Canceled', 'error'],
    ['Received at MIA warehouse', 'neutral'],
    ['At destination', 'neutral'],
    ['', 'neutral'],
  ] as const)('when the status is %j, then %s', (status, tone) => {
    expect(statusTone(status)).toBe(tone);
  });
});

describe('formatSizeLimit (a limit as a sentence states it: the largest unit it reaches, base 1024)', () => {
  afterEach(restoreLocale);

  it.each([
    [1024 * 1024, '1MB', '1 MB'],
    [4 * 1024 * 1024, '4MB', '4 MB'],
    [5 * 1024 * 1024, '5MB', '5 MB'],
    [20 * 1024 * 1024, '20MB', '20 MB'],
    [1.5 * 1024 * 1024, '1.5MB', '1,5 MB'],
    [64 * 1024, '64KB', '64 KB'],
    [512, '512 Bytes', '512 bytes'],
  ])('when the limit is %i bytes, then English says %s and Dutch %s', (bytes, english, dutch) => {
    expect(formatSizeLimit(bytes)).toBe(english);
    readMessagesIn('nl');
    expect(formatSizeLimit(bytes)).toBe(dutch);
  });
});

describe('formatFileSize (Bytes, KB or MB, base 1024)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [25_825, '25.22 KB'],
    [1024 * 1024 - 1, '1.00 MB'],
    [1024 * 1024, '1.00 MB'],
    [Math.round(3.756 * 1024 * 1024), '3.76 MB'],
    [5 * 1024 * 1024 * 1024, '5120.00 MB'],
  ])('when the size is %i bytes, then %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it.each([null, undefined, Number.NaN, -1])('when the size is %s, then 0 Bytes', (bytes) => {
    expect(formatFileSize(bytes)).toBe('0 Bytes');
  });
});

describe('formatDateTime (US short)', () => {
  it('when given a date, then M/D/YY, h:mm AM/PM', () => {
    expect(formatDateTime(new Date(2026, 10, 21, 8, 6))).toBe('11/21/26, 8:06 AM');
    expect(formatDateTime(new Date(2024, 0, 5, 23, 45))).toBe('1/5/24, 11:45 PM');
  });

  it.each([null, undefined, '', 'not a date'])('when given %s, then N/A', (value) => {
    expect(formatDateTime(value)).toBe('N/A');
  });
});

describe('per locale: English gets en-US forms, Dutch gets nl-NL', () => {
  afterEach(restoreLocale);

  const date = new Date(2026, 10, 23, 8, 6);

  it.each([
    ['en', ['09:00 AM', '04:30 PM', '12:00 AM'], ['United States', 'Netherlands', 'Suriname']],
    ['nl', ['09:00', '16:30', '00:00'], ['Verenigde Staten', 'Nederland', 'Suriname']],
  ] as const)(
    'when the reader is %s, then times of day read %j and countries %j',
    (locale, times, countries) => {
      readMessagesIn(locale);
      expect(['09:00', '16:30', '00:00'].map(formatTimeOfDay)).toEqual(times);
      expect(['US', 'NL', 'SR'].map(formatCountry)).toEqual(countries);
    },
  );

  it.each([
    ['en', '11/23/2026', '11/23/26, 8:06 AM'],
    ['nl', '23-11-2026', '23-11-2026, 08:06'],
  ] as const)(
    'when the reader is %s, then the date is %s and the date-time %j',
    (locale, dateText, dateTimeText) => {
      readMessagesIn(locale);
      expect(formatDate(date)).toBe(dateText);
      expect(formatDate('2026-11-23T08:06:00')).toBe(dateText);
      expect(formatDateTime(date)).toBe(dateTimeText);
    },
  );

  it.each([
    ['en', '1,234.567', '1,234.567 lbs', '0.500 ft³', '1,234', 'N/A'],
    ['nl', '1.234,567', '1.234,567 lbs', '0,500 ft³', '1.234', 'n.v.t.'],
  ] as const)(
    'when the reader is %s, then numbers read %s (measures, counts and "not available" alike)',
    (locale, number, weight, volume, count, missing) => {
      readMessagesIn(locale);
      expect(formatNumber(1234.567)).toBe(number);
      expect(formatWeight(1234.567)).toBe(weight);
      expect(formatVolume(0.5)).toBe(volume);
      expect(formatCount(1234)).toBe(count);
      expect(formatDate(null)).toBe(missing);
      expect(formatDateTime('not a date')).toBe(missing);
    },
  );

  it.each([
    ['en', ['512 Bytes', '1.50 KB', '5120.00 MB', '0 Bytes']],
    ['nl', ['512 bytes', '1,50 KB', '5120,00 MB', '0 bytes']],
  ] as const)('when the reader is %s, then file sizes read %j', (locale, sizes) => {
    readMessagesIn(locale);
    expect([
      formatFileSize(512),
      formatFileSize(1536),
      formatFileSize(5 * 1024 * 1024 * 1024),
      formatFileSize(-1),
    ]).toEqual(sizes);
  });

  it.each([
    ['en', ['In-Transit', 'Delivered', 'On-Hold', 'Cancelled', 'Cancelled']],
    ['nl', ['Onderweg', 'Afgeleverd', 'Aangehouden', 'Geannuleerd', 'Geannuleerd']],
  ] as const)('when the reader is %s, then the known statuses read %j', (locale, labels) => {
    readMessagesIn(locale);
    expect(
      ['In-Transit', 'delivered', 'ON_HOLD', 'Cancelled', 'Canceled'].map(statusLabel),
    ).toEqual(labels);
  });

  it.each([
    [
      'en',
      [
        'Pending',
        'Received at MIA warehouse',
        'Received at NL warehouse',
        'Received at SME warehouse',
        'Arrived',
        'At destination',
      ],
    ],
    [
      'nl',
      [
        'In afwachting',
        'Ontvangen in magazijn MIA',
        'Ontvangen in magazijn NL',
        'Ontvangen in magazijn SME',
        'Aangekomen',
        'Op bestemming',
      ],
    ],
  ] as const)(
    "when the reader is %s, then the provider's warehouse statuses read %j",
    (locale, labels) => {
      readMessagesIn(locale);
      const sent = [
        'Pending',
        'Received at MIA warehouse',
        'received at NL warehouse',
        'Received at SME warehouse',
        'Arrived',
        'At destination',
      ];
      expect(sent.map(statusLabel)).toEqual(labels);
    },
  );

  it.each([
    [
      'en',
      [
        'Sea freight, loose',
        'Sea freight, in a container',
        'Air freight',
        'Air freight, in a container',
        'Sea freight',
        'Air freight',
        'Hovercraft',
      ],
    ],
    [
      'nl',
      [
        'Zeevracht, los',
        'Zeevracht, in een container',
        'Luchtvracht',
        'Luchtvracht, in een container',
        'Zeevracht',
        'Luchtvracht',
        'Hovercraft',
      ],
    ],
  ] as const)(
    'when the reader is %s, then the modes of transportation read %j',
    (locale, labels) => {
      readMessagesIn(locale);
      const sent = [
        '10 - Vessel, Non-Containerized',
        '11 - Vessel, Containerized',
        '40 - Air',
        '41 - Air Containerized',
        'Ocean',
        'air',
        'Hovercraft',
      ];
      expect(sent.map(transportLabel)).toEqual(labels);
    },
  );

  it.each(['en', 'nl'] as const)(
    'when the reader is %s, then a status nobody knows stays as sent',
    (locale) => {
      readMessagesIn(locale);
      expect(statusLabel('Awaiting customs inspection')).toBe('Awaiting customs inspection');
    },
  );
});
