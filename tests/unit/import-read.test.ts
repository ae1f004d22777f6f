/** How a file import merges an export's rows into receipts (src/server/services/imports/read.ts). */
import { describe, expect, it } from 'vitest';
import type { SheetRow } from '~/server/services/imports/formats';
import { readSheet } from '~/server/services/imports/read';

const HEADER = 'WR #,Date Received,Shipper,Consignee,Pcs,Weight (kg),Tracking #,Description';

/** A CSV's lines as the sheet reader hands them over, row 1 being the header. */
async function* sheetOf(lines: string[]): AsyncGenerator<SheetRow> {
  for (const [index, line] of [HEADER, ...lines].entries())
    yield { row: index + 1, cells: line.split(',') };
}

const read = (lines: string[]) =>
  readSheet(sheetOf(lines), {
    mapping: {},
    savedMapping: async () => null,
    dateOrder: 'month-first',
  });

describe('rows of one receipt number', () => {
  it('when they are far apart in the file, then they are one receipt with all its packages, in the order the file first names the receipts', async () => {
    const file = await read([
      'WR-1,06/01/2026,Amazon,Jansen,1,2,T1,Shoes',
      'WR-2,06/02/2026,Best Buy,De Vries,1,3,T2,Laptop',
      'WR-1,06/01/2026,Amazon,Jansen,2,4,T3,Books',
      'WR-3,06/03/2026,Target,Jansen,1,1,T4,Lamp',
      'WR-1,06/01/2026,Amazon,Jansen,1,0.5,T5,Socks',
    ]);
    expect(file.errors).toEqual([]);
    expect([...file.receipts.numbers()]).toEqual(['WR-1', 'WR-2', 'WR-3']);
    const receipt = file.receipts.receipt('WR-1');
    expect(receipt).toMatchObject({ number: 'WR-1', pieces: 4, consigneeName: 'Jansen' });
    expect(receipt.totalWeightValue).toBeCloseTo(14.33, 2);
    expect(receipt.commodities.map((item) => item.trackingNumber)).toEqual(['T1', 'T3', 'T5']);
    // Made anew when asked again, alike: what is compared is what is written.
    expect(file.receipts.receipt('WR-1')).toEqual(receipt);
  });

  it('when a later one of them is bad, then the receipt is left out whole and the row is reported by its number', async () => {
    const file = await read([
      'WR-1,06/01/2026,Amazon,Jansen,1,2,T1,Shoes',
      'WR-2,06/02/2026,Best Buy,De Vries,1,3,T2,Laptop',
      'WR-1,not a date,Amazon,Jansen,2,4,T3,Books',
    ]);
    expect(file.errors).toEqual([expect.objectContaining({ row: 4, column: 'Date Received' })]);
    expect([...file.receipts.numbers()]).toEqual(['WR-2']);
    expect([...file.refusedNumbers]).toEqual(['WR-1']);
  });
});
