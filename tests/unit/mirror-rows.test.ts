import { describe, expect, it } from 'vitest';
import { toMirrorRows, trackingKey } from '~/server/services/receipts/mirror-rows';
import { sortKey } from '~/shared/sort-key';
import type { ProviderReceipt } from '~/server/provider/contract';

const receipt: ProviderReceipt = {
  id: 104233,
  number: 'WR-104233',
  receivedDate: '2026-11-18T15:20:00.000Z',
  shipperName: 'Amazon.com Services LLC',
  consigneeId: 17,
  consigneeName: 'Paramaribo Trading N.V.',
  pieces: 2,
  totalWeightValue: 41.25,
  totalVolumeValue: 3.412,
  destination: 'Paramaribo, Suriname',
  status: 'In-Transit',
  modeOfTransportation: '40 - Air',
  origin: { name: 'Miami, FL' },
  commodities: [
    {
      description: 'Auto parts',
      trackingNumber: '1z999aa1 0123456784',
      pieces: 1,
      totalWeightValue: 12.5,
      totalVolumeValue: 1.2,
    },
    {
      description: 'Rice',
      trackingNumber: null,
      pieces: 1,
      totalWeightValue: 28.75,
      totalVolumeValue: 2.212,
    },
  ],
  updatedAt: '2026-11-21T06:00:00.000Z',
};

describe('toMirrorRows', () => {
  it('keeps every field, lower-cases the searchable text and keeps the packages in order', () => {
    const rows = toMirrorRows(receipt)!;
    expect(rows.receipt).toMatchObject({
      id: 104233,
      number: 'WR-104233',
      consigneeId: 17,
      originName: 'Miami, FL',
      searchText: 'wr-104233\namazon.com services llc\nparamaribo trading n.v.',
    });
    expect(rows.receipt.receivedDate?.toISOString()).toBe('2026-11-18T15:20:00.000Z');
    expect(rows.packages.map((row) => [row.position, row.trackingKey])).toEqual([
      [0, '1Z999AA10123456784'],
      [1, null],
    ]);
  });

  it('turns missing or wrong-typed values into empty text and zeros instead of failing the sync', () => {
    const odd = {
      ...receipt,
      shipperName: undefined,
      pieces: 'many',
      totalWeightValue: Number.NaN,
      receivedDate: 'soon',
      origin: null,
      commodities: 'none',
    };
    const rows = toMirrorRows(odd as unknown as ProviderReceipt)!;
    expect(rows.receipt).toMatchObject({
      shipperName: '',
      pieces: 0,
      totalWeightValue: 0,
      receivedDate: null,
      originName: '',
    });
    expect(rows.packages).toEqual([]);
  });

  it('skips a receipt without a usable id', () => {
    expect(toMirrorRows({ ...receipt, id: 0 })).toBeNull();
    expect(toMirrorRows({ ...receipt, id: '12' as unknown as number })).toBeNull();
  });

  it('compares tracking numbers without case or spaces', () => {
    expect(trackingKey(' tba 123456789012 ')).toBe('TBA123456789012');
  });
});

describe('sort keys', () => {
  it('are stored beside every text column the list sorts by', () => {
    const row = toMirrorRows(receipt)!.receipt;
    expect(row.shipperNameSort).toBe(sortKey('Amazon.com Services LLC'));
    expect(row.originNameSort).toBe(sortKey('Miami, FL'));
    expect(row.modeOfTransportationSort).toBe(sortKey('40 - Air'));
  });
});
