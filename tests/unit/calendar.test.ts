import { describe, expect, it } from 'vitest';
import { startOfIsoWeek, startOfMonth } from '~/server/calendar';

describe('dashboard calendar', () => {
  it('starts the month at local midnight on the first', () => {
    expect(startOfMonth(new Date(2026, 10, 21, 15, 30))).toEqual(new Date(2026, 10, 1));
  });

  it('starts the ISO week on Monday, also when today is Sunday or Monday', () => {
    expect(startOfIsoWeek(new Date(2026, 10, 21, 9))).toEqual(new Date(2026, 10, 16)); // Saturday
    expect(startOfIsoWeek(new Date(2026, 10, 22, 23))).toEqual(new Date(2026, 10, 16)); // Sunday
    expect(startOfIsoWeek(new Date(2026, 10, 16, 0, 1))).toEqual(new Date(2026, 10, 16)); // Monday
    expect(startOfIsoWeek(new Date(2026, 11, 2))).toEqual(new Date(2026, 10, 30)); // across a month
  });
});
