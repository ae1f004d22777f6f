import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toMirrorRows } from '~/server/services/receipts/mirror-rows';
import {
  MAGAYA_STATUSES,
  readAttachmentEntry,
  readWarehouseReceipt,
  type MagayaIds,
  type MagayaReceiptReading,
} from '~/server/provider/magaya/receipt';
import { childrenOf, parseXml } from '~/server/provider/magaya/xml';
import { statusLabel } from '~/shared/format';
import { readMessagesIn, restoreLocale } from '../support/messages-locale';

const UPDATED_AT = '2026-12-01T12:00:00.000Z';

/** Ids handed out in the order GUIDs are first met, as the adapter's map does. */
function idsInOrder(): MagayaIds {
  const counter = (first: number) => {
    const given = new Map<string, number>();
    return (guid: string) => given.get(guid) ?? given.set(guid, first + given.size).get(guid)!;
  };
  return { receiptId: counter(1), consigneeId: counter(1001) };
}

const fixture = readFileSync(
  new URL('../support/magaya/warehouse-receipts.xml', import.meta.url),
  'utf8',
);

function readFixture(): MagayaReceiptReading[] {
  const ids = idsInOrder();
  return childrenOf(parseXml(fixture), 'WarehouseReceipt').map((element) =>
    readWarehouseReceipt(element, { ids, updatedAt: UPDATED_AT }),
  );
}

const receiptOf = (reading: MagayaReceiptReading | undefined) => {
  if (reading?.kind !== 'receipt') throw new Error(`not a receipt: ${reading?.kind}`);
  return reading;
};

const one = (body: string) =>
  readWarehouseReceipt(
    parseXml(
      `<WarehouseReceipt xmlns="http://www.magaya.com/XMLSchema/V1" GUID="g">${body}</WarehouseReceipt>`,
    ),
    {
      ids: idsInOrder(),
      updatedAt: UPDATED_AT,
    },
  );

describe('Magaya warehouse receipt mapping', () => {
  it('when a receipt in lb and ft³ is read, then every field of the spec is filled from it', () => {
    const reading = receiptOf(readFixture()[0]);
    expect(reading.guid).toBe('5b0e3f1c-7f3a-4d2e-9a51-0c2f8e1d4a01');
    expect(reading.hasAttachments).toBe(true);
    expect(reading.consignee).toEqual({
      guid: 'c7a1d2e3-0000-4000-8000-000000000017',
      name: 'Paramaribo Trading N.V.',
    });
    expect(reading.receipt).toEqual({
      id: 1,
      number: '104512',
      receivedDate: '2026-11-20T14:15:00.000Z',
      shipperName: 'Amazon.com Services LLC',
      consigneeId: 1001,
      consigneeName: 'Paramaribo Trading N.V.',
      pieces: 3,
      totalWeightValue: 30,
      totalVolumeValue: 4,
      destination: 'Paramaribo, Suriname',
      status: 'On hand',
      modeOfTransportation: '40 - Air',
      origin: { name: 'Miami, FL' },
      commodities: [
        {
          description: 'Laptop computers',
          trackingNumber: 'TBA123456789012',
          pieces: 2,
          totalWeightValue: 25.5,
          totalVolumeValue: 3.25,
        },
        {
          description: 'Printer toner',
          trackingNumber: '1Z999AA10123456784',
          pieces: 1,
          totalWeightValue: 4.5,
          totalVolumeValue: 0.75,
        },
      ],
      updatedAt: UPDATED_AT,
    });
  });

  it('when a receipt is in kg and m³, then the portal has it in lb and ft³', () => {
    const { receipt } = receiptOf(readFixture()[1]);
    expect(receipt.totalWeightValue).toBe(22.05); // 10 kg
    expect(receipt.totalVolumeValue).toBe(3.531); // 0.1 m³
    expect(receipt.commodities[0]).toMatchObject({
      totalWeightValue: 22.05,
      totalVolumeValue: 3.531,
      trackingNumber: 'JJD000390007723481',
    });
    // No ConsigneeName element: the Consignee's Name; a time without an offset is read as the server's own.
    expect(receipt).toMatchObject({
      consigneeName: 'Willemstad Imports',
      status: 'In-Transit',
      modeOfTransportation: '10 - Vessel',
      destination: 'Willemstad, Curaçao',
    });
  });

  it('when a weight or volume names no unit, then the receipt’s MeasurementUnits decides; an unknown unit reads as no figure', () => {
    expect(
      one(
        '<MeasurementUnits>Metric</MeasurementUnits><TotalWeight>1</TotalWeight><TotalVolume>1</TotalVolume>',
      ),
    ).toMatchObject({
      receipt: { totalWeightValue: 2.2, totalVolumeValue: 35.315 },
    });
    expect(one('<TotalWeight>1</TotalWeight><TotalVolume>1</TotalVolume>')).toMatchObject({
      receipt: { totalWeightValue: 1, totalVolumeValue: 1 },
    });
    expect(
      one(
        '<TotalWeight Unit="st">1</TotalWeight><Items><Item><Weight Unit="kg">2</Weight></Item></Items>',
      ),
    ).toMatchObject({
      receipt: { totalWeightValue: 4.41 },
    });
  });

  it('when the totals are missing, then they are the items’ sums; an item without a count is one piece', () => {
    expect(
      one(
        '<Items><Item><Weight Unit="lb">1.25</Weight></Item><Item><Pieces>3</Pieces><Weight Unit="lb">2</Weight></Item></Items>',
      ),
    ).toMatchObject({
      receipt: { pieces: 4, totalWeightValue: 3.25, totalVolumeValue: 0 },
    });
  });

  it('when a receipt holds nothing but its GUID, then it is read with empty fields, not refused', () => {
    expect(receiptOf(readFixture()[3]).receipt).toMatchObject({
      id: 3,
      number: '',
      receivedDate: '',
      consigneeId: null,
      consigneeName: '',
      pieces: 0,
      totalWeightValue: 0,
      totalVolumeValue: 0,
      destination: '',
      status: '',
      modeOfTransportation: '',
      origin: { name: '' },
      commodities: [],
    });
  });

  it('when a receipt is not online, then it is kept from everyone; without a GUID it cannot be mirrored', () => {
    const readings = readFixture();
    expect(readings[2]).toEqual({ kind: 'offline', guid: '5b0e3f1c-7f3a-4d2e-9a51-0c2f8e1d4a03' });
    expect(readings[4]).toEqual({ kind: 'unidentified' });
  });

  it('when a mapped receipt goes to the mirror, then its packages are found by tracking number', () => {
    const rows = toMirrorRows(receiptOf(readFixture()[0]).receipt)!;
    expect(rows.packages.map((row) => row.trackingKey)).toEqual([
      'TBA123456789012',
      '1Z999AA10123456784',
    ]);
    expect(rows.receipt.consigneeId).toBe(1001);
  });

  it('when a port has no name, then its code stands for it; a mode without a code is its description', () => {
    expect(
      one(
        '<OriginPort Code="MIA"/><DestinationPort Code="PBM"><Name> </Name></DestinationPort><ModeOfTransportation>Air</ModeOfTransportation>',
      ),
    ).toMatchObject({
      receipt: { origin: { name: 'MIA' }, destination: 'PBM', modeOfTransportation: 'Air' },
    });
  });

  it('when Magaya’s statuses are shown, then each has an English and a Dutch label; an unknown one stays as sent', () => {
    const english = Object.values(MAGAYA_STATUSES).map(statusLabel);
    expect(english).toEqual([
      'Pending',
      'On hand',
      'In process',
      'In-Transit',
      'At destination',
      'Delivered',
    ]);
    try {
      readMessagesIn('nl');
      expect(Object.values(MAGAYA_STATUSES).map(statusLabel)).toEqual([
        'In afwachting',
        'In magazijn',
        'In behandeling',
        'Onderweg',
        'Op bestemming',
        'Afgeleverd',
      ]);
    } finally {
      restoreLocale();
    }
    expect(one('<Status>Cancelled</Status>')).toMatchObject({ receipt: { status: 'Cancelled' } });
  });
});

describe('Magaya attachment entries', () => {
  const entry = (body: string) =>
    readAttachmentEntry(
      parseXml(`<Attachment xmlns="http://www.magaya.com/XMLSchema/V1">${body}</Attachment>`),
    );

  it('when an attachment is internal, then it is not listed at all', () => {
    expect(
      entry(
        '<Name>cost sheet</Name><Extension>pdf</Extension><IsInternal>true</IsInternal><Identifier>7</Identifier>',
      ),
    ).toBeNull();
  });

  it('when an attachment is for customers, then it is listed with its file name, kind, type and size', () => {
    expect(
      entry(
        '<Name>front</Name><Extension>.JPG</Extension><IsImage>true</IsImage><IsInternal>false</IsInternal><Size>48213</Size><OwnerGUID>5b0e</OwnerGUID><Identifier>12</Identifier>',
      ),
    ).toEqual({
      ownerGuid: '5b0e',
      attachment: {
        id: '12',
        kind: 'photo',
        fileName: 'front.jpg',
        contentType: 'image/jpeg',
        size: 48213,
        createdAt: null,
      },
    });
    expect(
      entry('<Name>invoice.pdf</Name><Extension>pdf</Extension><Identifier>13</Identifier>'),
    ).toMatchObject({
      attachment: {
        kind: 'other',
        fileName: 'invoice.pdf',
        contentType: 'application/pdf',
        size: 0,
      },
    });
    expect(entry('<Name>no id</Name>')).toBeNull();
  });
});
