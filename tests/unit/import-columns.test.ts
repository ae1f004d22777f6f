/** How a file import reads an export's headers, numbers and dates (src/server/services/imports). */
import { describe, expect, it } from 'vitest';
import { fieldOfHeader, headerSignature, unitFactor } from '~/server/services/imports/columns';
import {
  decideDateOrder,
  noVotes,
  readDate,
  readNumber,
  voteDateOrder,
} from '~/server/services/imports/values';

describe('headers', () => {
  it.each([
    ['WR #', 'number'],
    ['Receipt Number', 'number'],
    ['Ontvangstnummer', 'number'],
    ['Number', 'number'],
    ['CreatedOn', 'receivedDate'],
    ['Ontvangstdatum', 'receivedDate'],
    ['ConsigneeName', 'consigneeName'],
    ['Geadresseerde', 'consigneeName'],
    ['Verzender', 'shipperName'],
    ['TotalWeight', 'totalWeightValue'],
    ['Gewicht (kg)', 'totalWeightValue'],
    ['Weight lbs', 'totalWeightValue'],
    ['Volume (m3)', 'totalVolumeValue'],
    ['Volume cu ft', 'totalVolumeValue'],
    ['Tracking #', 'trackingNumber'],
    ['CarrierTrackingNumber', 'trackingNumber'],
    ['Omschrijving', 'description'],
    ['Stuks', 'pieces'],
    ['Bestemming', 'destination'],
  ])('"%s" is %s', (header, field) => {
    expect(fieldOfHeader(header)).toBe(field);
  });

  it('converts the units a header names to lb and ft³', () => {
    expect(unitFactor('Weight (kg)')).toBeCloseTo(2.20462, 5);
    expect(unitFactor('Weight (lbs)')).toBe(1);
    expect(unitFactor('Volume (m3)')).toBeCloseTo(35.3147, 4);
    expect(unitFactor('Volume m³')).toBeCloseTo(35.3147, 4);
    expect(unitFactor('Volume (cu ft)')).toBe(1);
    expect(unitFactor('Weight')).toBe(1);
  });

  it('gives one source one signature, whatever the case and spaces', () => {
    expect(headerSignature(['Ref', ' When '])).toBe(headerSignature(['REF', 'when']));
    expect(headerSignature(['Ref', 'When'])).not.toBe(headerSignature(['When', 'Ref']));
  });
});

describe('numbers', () => {
  it.each([
    ['12.5', 12.5],
    ['12,5', 12.5],
    ['1.234,5', 1234.5],
    ['1,234.5', 1234.5],
    ['1,234,567', 1234567],
    [' 7 ', 7],
    ['abc', null],
    ['', null],
  ])('"%s" reads %s', (text, value) => {
    expect(readNumber(text)).toBe(value);
  });
});

describe('dates', () => {
  it('reads ISO, Excel serials and date cells', () => {
    expect(readDate('2026-06-15', 'month-first')?.toISOString()).toBe('2026-06-15T00:00:00.000Z');
    expect(readDate(46188, 'month-first')?.toISOString()).toBe('2026-06-15T00:00:00.000Z');
    const cell = new Date(Date.UTC(2026, 5, 15));
    expect(readDate(cell, 'day-first')).toBe(cell);
  });

  it('reads US month-first with AM/PM and day-first as the order says', () => {
    expect(readDate('06/13/2026 2:30 PM', 'month-first')?.toISOString()).toBe(
      '2026-06-13T14:30:00.000Z',
    );
    expect(readDate('12/01/2026 12:05 AM', 'month-first')?.toISOString()).toBe(
      '2026-12-01T00:05:00.000Z',
    );
    expect(readDate('15-06-2026', 'day-first')?.toISOString()).toBe('2026-06-15T00:00:00.000Z');
    expect(readDate('15-06-2026', 'month-first')).toBeNull();
    expect(readDate('31-02-2026', 'day-first')).toBeNull();
  });

  it('decides a file’s order from its values, and follows the setting when they could be either', () => {
    const dayFirst = noVotes();
    for (const text of ['03-04-2026', '15-06-2026']) voteDateOrder(text, dayFirst);
    expect(decideDateOrder(dayFirst, 'month-first')).toBe('day-first');
    const usual = noVotes();
    for (const text of ['03/04/2026', '06/13/2026']) voteDateOrder(text, usual);
    expect(decideDateOrder(usual, 'day-first')).toBe('month-first');
    const either = noVotes();
    voteDateOrder('03-04-2026', either);
    expect(decideDateOrder(either, 'day-first')).toBe('day-first');
    expect(decideDateOrder(either, 'month-first')).toBe('month-first');
  });
});
