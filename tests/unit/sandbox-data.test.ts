import { describe, expect, it } from 'vitest';
import type { ProviderReceipt } from '~/server/provider/contract';
import { generateSandbox, receiptOf } from '~/server/provider/sandbox/generator';

const NOW = new Date(2026, 10, 18, 14, 30).getTime(); // a Wednesday, local time
const COUNT = 500;

function receiptsOf(seed: number, count = COUNT, now = NOW): ProviderReceipt[] {
  const data = generateSandbox(seed, count, now);
  return data.records.map((record) => receiptOf(seed, record, data.consignees));
}

const receipts = receiptsOf(1);
const isAir = (mode: string) => /air|40/i.test(mode);

const TRACKING_FORMATS = {
  UPS: /^1Z[A-Z0-9]{16}$/,
  FedEx: /^(\d{12}|\d{15})$/,
  USPS: /^9400\d{18}$/,
  Amazon: /^TBA\d{12}$/,
};

describe('sandbox data generation', () => {
  it('when generated twice from the same seed and time, then the data is identical', () => {
    expect(receiptsOf(1)).toEqual(receipts);
    expect(generateSandbox(1, COUNT, NOW).scans).toEqual(generateSandbox(1, COUNT, NOW).scans);
  });

  it('when generated from another seed, then the data differs', () => {
    const other = receiptsOf(2);
    expect(other).toHaveLength(COUNT);
    expect(other.map((receipt) => receipt.shipperName)).not.toEqual(
      receipts.map((receipt) => receipt.shipperName),
    );
    expect(
      other.flatMap((receipt) => receipt.commodities.map((c) => c.trackingNumber)),
    ).not.toEqual(receipts.flatMap((receipt) => receipt.commodities.map((c) => c.trackingNumber)));
  });

  it('when asked for N receipts, then there are N with unique ids and WR- numbers', () => {
    expect(receipts).toHaveLength(COUNT);
    expect(new Set(receipts.map((receipt) => receipt.id)).size).toBe(COUNT);
    expect(new Set(receipts.map((receipt) => receipt.number)).size).toBe(COUNT);
    for (const receipt of receipts) expect(receipt.number).toMatch(/^WR-\d{6}$/);
  });

  it('when generated, then there are about sixty consignees with unique names, and every receipt names one of them', () => {
    const { consignees } = generateSandbox(1, COUNT, NOW);
    expect(consignees.length).toBeGreaterThanOrEqual(55);
    expect(consignees.length).toBeLessThanOrEqual(65);
    expect(new Set(consignees.map((consignee) => consignee.name)).size).toBe(consignees.length);
    expect(new Set(consignees.map((consignee) => consignee.id)).size).toBe(consignees.length);
    const byId = new Map<number | null, string>(
      consignees.map((consignee) => [consignee.id, consignee.name]),
    );
    for (const receipt of receipts)
      expect(byId.get(receipt.consigneeId)).toBe(receipt.consigneeName);
    expect(new Set(receipts.map((receipt) => receipt.consigneeId)).size).toBeGreaterThan(40);
  });

  it('when generated, then every status of the map and the status colours occurs, In-Transit by air and by ocean', () => {
    const statuses = new Set(receipts.map((receipt) => receipt.status));
    for (const status of [
      'Received at MIA warehouse',
      'Received at NL warehouse',
      'In-Transit',
      'Arrived',
      'At destination',
      'Received at SME warehouse',
      'Delivered',
      'On-Hold',
      'Cancelled',
      'Pending',
    ]) {
      expect(statuses, status).toContain(status);
    }
    const inTransit = receipts.filter((receipt) => receipt.status === 'In-Transit');
    expect(inTransit.some((receipt) => isAir(receipt.modeOfTransportation))).toBe(true);
    expect(inTransit.some((receipt) => !isAir(receipt.modeOfTransportation))).toBe(true);
  });

  it('when generated, then air and ocean modes occur, one with the code 40, and every origin', () => {
    const modes = new Set(receipts.map((receipt) => receipt.modeOfTransportation));
    expect([...modes].some((mode) => mode.includes('40'))).toBe(true);
    expect([...modes].filter(isAir).length).toBeGreaterThanOrEqual(2);
    expect([...modes].filter((mode) => !isAir(mode)).length).toBeGreaterThanOrEqual(2);
    const origins = new Set(receipts.map((receipt) => receipt.origin.name));
    for (const origin of ['Miami, FL', 'Port of Miami', 'Amsterdam Airport Schiphol', 'Rotterdam'])
      expect(origins).toContain(origin);
    for (const receipt of receipts) expect(receipt.destination).toMatch(/, Suriname$/);
  });

  it('when a receipt comes from the Netherlands, then it goes by a Dutch route and warehouse; from Miami, by a Miami one', () => {
    for (const receipt of receipts) {
      const origin = receipt.origin.name;
      if (origin === 'Amsterdam Airport Schiphol')
        expect(isAir(receipt.modeOfTransportation)).toBe(true);
      if (origin === 'Rotterdam' || origin === 'Port of Miami')
        expect(isAir(receipt.modeOfTransportation)).toBe(false);
      const dutch = origin === 'Amsterdam Airport Schiphol' || origin === 'Rotterdam';
      if (receipt.status === 'Received at NL warehouse') expect(dutch).toBe(true);
      if (receipt.status === 'Received at MIA warehouse') expect(dutch).toBe(false);
    }
  });

  it('when generated, then received dates lie within the last 13 months, some in the current ISO week and month', () => {
    const thirteenMonthsAgo = new Date(NOW);
    thirteenMonthsAgo.setMonth(thirteenMonthsAgo.getMonth() - 13);
    const weekStart = new Date(2026, 10, 16).getTime(); // Monday
    const monthStart = new Date(2026, 10, 1).getTime();
    const times = receipts.map((receipt) => Date.parse(receipt.receivedDate));
    for (const time of times) {
      expect(time).toBeGreaterThanOrEqual(thirteenMonthsAgo.getTime());
      expect(time).toBeLessThanOrEqual(NOW);
    }
    expect(times.filter((time) => time >= weekStart).length).toBeGreaterThanOrEqual(5);
    expect(times.filter((time) => time >= monthStart).length).toBeGreaterThanOrEqual(12);
    expect(Math.min(...times)).toBeLessThan(NOW - 330 * 86_400_000);
    for (const receipt of receipts) {
      expect(Date.parse(receipt.updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(receipt.receivedDate),
      );
      expect(Date.parse(receipt.updatedAt)).toBeLessThanOrEqual(NOW);
    }
  });

  it('when even a handful of receipts is asked for on the first of a month, then they are in the current week and month', () => {
    const firstOfMonth = new Date(2026, 11, 1, 9, 0).getTime(); // a Tuesday
    for (const receipt of receiptsOf(3, 5, firstOfMonth))
      expect(Date.parse(receipt.receivedDate)).toBeGreaterThanOrEqual(
        new Date(2026, 10, 30).getTime(),
      );
  });

  it('when a receipt has packages, then there are at most six and their pieces, weights and volumes add up to the totals', () => {
    for (const receipt of receipts) {
      expect(receipt.commodities.length).toBeLessThanOrEqual(6);
      expect(receipt.pieces).toBeGreaterThanOrEqual(1);
      expect(receipt.totalWeightValue).toBeGreaterThan(0);
      expect(receipt.totalVolumeValue).toBeGreaterThan(0);
      if (receipt.commodities.length === 0) continue;
      const sum = (key: 'pieces' | 'totalWeightValue' | 'totalVolumeValue') =>
        receipt.commodities.reduce((total, commodity) => total + commodity[key], 0);
      expect(sum('pieces')).toBe(receipt.pieces);
      expect(sum('totalWeightValue')).toBeCloseTo(receipt.totalWeightValue, 6);
      expect(sum('totalVolumeValue')).toBeCloseTo(receipt.totalVolumeValue, 6);
      for (const commodity of receipt.commodities) {
        expect(commodity.pieces).toBeGreaterThanOrEqual(1);
        expect(commodity.totalWeightValue).toBeGreaterThan(0);
        expect(commodity.description.length).toBeGreaterThan(2);
      }
    }
    const counts = new Set(receipts.map((receipt) => receipt.commodities.length));
    for (const count of [0, 1, 2, 3, 4, 5, 6]) expect(counts).toContain(count);
  });

  it('when packages carry tracking numbers, then each has a carrier format (UPS, FedEx, USPS, Amazon), every format occurs, and some receipts have none', () => {
    const numbers = receipts.flatMap((receipt) =>
      receipt.commodities.flatMap((commodity) =>
        commodity.trackingNumber ? [commodity.trackingNumber] : [],
      ),
    );
    for (const number of numbers)
      expect(
        Object.values(TRACKING_FORMATS).some((format) => format.test(number)),
        number,
      ).toBe(true);
    for (const [carrier, format] of Object.entries(TRACKING_FORMATS))
      expect(
        numbers.some((number) => format.test(number)),
        carrier,
      ).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
    const untracked = receipts.filter((receipt) =>
      receipt.commodities.every((commodity) => commodity.trackingNumber === null),
    );
    expect(untracked.length).toBeGreaterThan(0);
    expect(untracked.some((receipt) => receipt.commodities.length > 0)).toBe(true);
  });

  it('when packages were scanned, then some scans are for packages on receipts and some for packages on no receipt', () => {
    const data = generateSandbox(1, COUNT, NOW);
    const onReceipts = new Set(
      receipts.flatMap((receipt) =>
        receipt.commodities.flatMap((commodity) =>
          commodity.trackingNumber ? [commodity.trackingNumber] : [],
        ),
      ),
    );
    expect(data.orphanTrackingNumbers.length).toBeGreaterThanOrEqual(10);
    for (const tracking of data.orphanTrackingNumbers) {
      expect(onReceipts.has(tracking)).toBe(false);
      expect(data.scans.get(tracking.toUpperCase())?.[0]).toMatchObject({
        tracking_number: tracking,
      });
    }
    expect(data.scannedPackages.length).toBeGreaterThan(10);
    for (const { trackingNumber, receiptId } of data.scannedPackages) {
      expect(
        receipts
          .find((receipt) => receipt.id === receiptId)
          ?.commodities.map((commodity) => commodity.trackingNumber),
      ).toContain(trackingNumber);
      const [scan] = data.scans.get(trackingNumber.toUpperCase())!;
      expect(scan).toMatchObject({
        tracking_number: trackingNumber,
        carrier: expect.any(String),
        location: expect.any(String),
      });
      expect(Date.parse(scan!.scanned_at)).toBeLessThanOrEqual(NOW);
    }
  });

  it('when a receipt is served twice, then its packages are the same', () => {
    const data = generateSandbox(1, COUNT, NOW);
    const record = data.records[42]!;
    expect(receiptOf(1, record, data.consignees)).toEqual(receiptOf(1, record, data.consignees));
  });
});
