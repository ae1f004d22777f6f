import { describe, expect, it } from 'vitest';
import { capitalizeRole, formatCountdown, formatDate, rateLimitMessage, roleLabel } from '~/shared/format';

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

describe('capitalizeRole', () => {
  it.each([
    ['admin', 'Admin'],
    ['viewer', 'Viewer'],
    ['admin-viewer', 'Admin-viewer'],
  ] as const)('when the role is %s, then %s', (role, expected) => {
    expect(capitalizeRole(role)).toBe(expected);
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
  it('when retryAfter is known, then the countdown message of the spec', () => {
    expect(rateLimitMessage(75)).toBe('Too many login attempts. Please wait 1:15 before trying again.');
    expect(rateLimitMessage(9)).toBe('Too many login attempts. Please wait 0:09 before trying again.');
  });

  it.each([undefined, 0, -1])('when retryAfter is %s, then the generic message', (retryAfter) => {
    expect(rateLimitMessage(retryAfter)).toBe('Too many login attempts. Please try again later.');
  });
});
