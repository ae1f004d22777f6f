/**
 * GET /api/receipts/export.csv: every receipt the list's filters match in the caller's
 * scope, in the list's order, as a UTF-8 CSV download a spreadsheet opens safely. The sandbox has more
 * receipts than one export batch, so a full export is written in several.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inLocale } from '~/server/locale';
import { transportLabel } from '~/shared/format';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
  writeDatabase,
} from '../../support/api-steps';
import { stallLimit } from '../../support/test-pace';

const DEMO_PASSWORD = 'demo-password-1';
const RECEIPTS = 2_500;
const DUTCH = { 'Accept-Language': 'nl-NL,nl;q=0.9' };
const ENGLISH_HEADER = [
  'Received Date',
  'Receipt Number',
  'Shipper',
  'Consignee',
  'Pieces',
  'Weight (lbs)',
  'Volume (ft³)',
  'Destination',
  'Status',
  'Mode of Transportation',
  'Origin',
];
const DUTCH_HEADER = [
  'Ontvangstdatum',
  'Ontvangstbewijsnummer',
  'Afzender',
  'Geadresseerde',
  'Colli',
  'Gewicht (lbs)',
  'Volume (ft³)',
  'Bestemming',
  'Status',
  'Vervoerswijze',
  'Herkomst',
];

let portal: InProcessPortal;
let admin: ApiClient;
let demo: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SYNC_INTERVAL_SECONDS: '3600',
    SANDBOX_RECEIPTS: String(RECEIPTS),
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
}, stallLimit(180_000));

afterAll(async () => {
  await portal?.stop();
});

interface Download {
  status: number;
  headers: Headers;
  /** The body's bytes as sent (after any transfer compression is undone). */
  bytes: Buffer;
  rows: string[][];
}

/** Downloads as a browser does, keeping the raw bytes (Response.text() would drop the byte order mark). */
async function download(
  client: ApiClient | null,
  query = '',
  headers: Record<string, string> = {},
): Promise<Download> {
  const response = await fetch(`${portal.url}/api/receipts/export.csv${query}`, {
    headers: { ...(client?.cookie && { Cookie: client.cookie }), ...headers },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const isCsv = response.headers.get('content-type')?.startsWith('text/csv');
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    rows: isCsv ? parse(bytes, { bom: true }) : [],
  };
}

const numbersOf = (rows: string[][]) => rows.slice(1).map((row) => row[1]);

describe('the CSV export', () => {
  it('when a user exports, then a UTF-8 CSV attachment named by the day, starting with the byte order mark, every receipt in CRLF lines', async () => {
    const { status, headers, bytes, rows } = await download(admin);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toBe(
      `attachment; filename="receipts-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(headers.get('cache-control')).toBe('no-store');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8', 3)).toMatch(
      /^Received Date,Receipt Number,Shipper,Consignee,Pieces,Weight \(lbs\),Volume \(ft³\),Destination,Status,Mode of Transportation,Origin\r\n/,
    );
    // More rows than one batch: all of them, each once.
    expect(rows).toHaveLength(RECEIPTS + 1);
    expect(new Set(numbersOf(rows)).size).toBe(RECEIPTS);
  });

  it('when exported without a language or in English, then the header row is English; in Dutch it is Dutch and so are known statuses', async () => {
    expect((await download(admin)).rows[0]).toEqual(ENGLISH_HEADER);
    expect((await download(admin, '', { 'Accept-Language': 'en-US,en;q=0.9' })).rows[0]).toEqual(
      ENGLISH_HEADER,
    );
    const dutch = await download(admin, '?sortBy=status', DUTCH);
    expect(dutch.rows[0]).toEqual(DUTCH_HEADER);
    const statuses = new Set(dutch.rows.slice(1).map((row) => row[8]));
    expect(statuses).toContain('Afgeleverd');
    expect(statuses).not.toContain('Delivered');
  });

  it("when exported, then the mode of transportation is a plain name in the reader's language, not the customs code", async () => {
    const modes = (rows: string[][]) => new Set(rows.slice(1).map((row) => row[9]));
    const english = modes((await download(admin)).rows);
    expect(english).toContain('Sea freight, in a container');
    expect(english).toContain('Air freight');
    const dutch = modes((await download(admin, '', DUTCH)).rows);
    expect(dutch).toContain('Zeevracht, in een container');
    expect(dutch).toContain('Luchtvracht');
    expect([...english, ...dutch].some((mode) => /^\d{2} - /.test(mode!))).toBe(false);
  });

  it('when a search and sort are given, then exactly the list’s receipts for them come back in its order, with the list’s values', async () => {
    const query = 'search=inc&sortBy=shipperName&sortOrder=asc';
    const listed = await allReceipts(admin, query);
    const first = (await admin.get(`/api/receipts?${query}&limit=1`)).body;
    expect(first.pagination.totalItems).toBe(listed.length);
    expect(listed.length).toBeGreaterThan(100);
    const { rows } = await download(admin, `?${query}`);
    expect(rows).toHaveLength(first.pagination.totalItems + 1);
    expect(numbersOf(rows)).toEqual(listed.map((receipt) => receipt.number));
    const receipt = listed[0]!;
    expect(rows[1]).toEqual([
      receipt.receivedDate,
      receipt.number,
      receipt.shipperName,
      receipt.consigneeName,
      String(receipt.pieces),
      String(receipt.totalWeightValue),
      String(receipt.totalVolumeValue),
      receipt.destination,
      receipt.status,
      inLocale('en', () => transportLabel(receipt.modeOfTransportation)),
      receipt.origin.name,
    ]);
    expect(rows[1]![0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Numbers are written plainly, with a dot for decimals: no thousands separators, no units.
    expect(
      rows.slice(1).every((row) => /^\d+(\.\d+)?$/.test(row[5]!) && /^\d+(\.\d+)?$/.test(row[6]!)),
    ).toBe(true);
  });

  it('when sorted descending by date (the default) or by number, then the order is the list’s', async () => {
    expect(numbersOf((await download(admin, '?search=wr-1')).rows)).toEqual(
      (await allReceipts(admin, 'search=wr-1')).map((receipt) => receipt.number),
    );
    expect(
      numbersOf((await download(admin, '?sortBy=number&sortOrder=desc&search=a')).rows),
    ).toEqual(
      (await allReceipts(admin, 'sortBy=number&sortOrder=desc&search=a')).map(
        (receipt) => receipt.number,
      ),
    );
  });

  it('when a page or limit is given, then they are ignored: every match comes back', async () => {
    const { status, rows } = await download(admin, '?search=inc&page=0&limit=5000');
    expect(status).toBe(200);
    expect(rows).toHaveLength(
      (await admin.get('/api/receipts?search=inc&limit=1')).body.pagination.totalItems + 1,
    );
  });

  it('when a customer exports, then exactly the receipts of their consignees come back', async () => {
    const own = await allReceipts(demo);
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThan(RECEIPTS);
    const { rows } = await download(demo);
    expect(numbersOf(rows)).toEqual(own.map((receipt) => receipt.number));
    const consignees = new Set(own.map((receipt) => receipt.consigneeName));
    expect(rows.slice(1).every((row) => consignees.has(row[3]!))).toBe(true);
  });

  it('when a cell holds a comma, a double quote or a line break, then it is quoted so that a CSV reader gets it back whole', async () => {
    // Provider data with such characters: the sandbox's destinations have commas; a shipper with quotes
    // and a line break is written into the mirror, as no sandbox receipt has one.
    const [row] = await queryDatabase<{ id: number; number: string }>(
      portal,
      'SELECT id, number FROM receipts ORDER BY id LIMIT 1',
    );
    const shipper = 'Quote "Q" Traders, Inc.\nSecond line';
    expect(
      await writeDatabase(portal, 'UPDATE receipts SET shipperName = ? WHERE id = ?', [
        shipper,
        row!.id,
      ]),
    ).toBe(1);
    const { bytes, rows } = await download(admin, `?search=${encodeURIComponent(row!.number)}`);
    expect(bytes.toString('utf8')).toContain('"Quote ""Q"" Traders, Inc.\nSecond line"');
    const exported = rows.find((cells) => cells[1] === row!.number)!;
    expect(exported[2]).toBe(shipper);
    expect(exported[7]).toMatch(/, /);
  });

  it('when a text cell starts like a spreadsheet formula, then it gets an apostrophe so that it is shown, not run', async () => {
    const [first, second] = await queryDatabase<{ id: number; number: string }>(
      portal,
      'SELECT id, number FROM receipts ORDER BY id LIMIT 2 OFFSET 5',
    );
    await writeDatabase(
      portal,
      'UPDATE receipts SET shipperName = ?, destination = ? WHERE id = ?',
      ['=HYPERLINK("http://evil.example","Click")', '@SUM(A1:A9)', first!.id],
    );
    await writeDatabase(
      portal,
      'UPDATE receipts SET shipperName = ?, destination = ? WHERE id = ?',
      ['-2+3', '+31 Rotterdam', second!.id],
    );
    const { rows } = await download(admin, '?sortBy=number');
    const byNumber = new Map(rows.map((cells) => [cells[1], cells]));
    expect(byNumber.get(first!.number)![2]).toBe('\'=HYPERLINK("http://evil.example","Click")');
    expect(byNumber.get(first!.number)![7]).toBe("'@SUM(A1:A9)");
    expect(byNumber.get(second!.number)![2]).toBe("'-2+3");
    expect(byNumber.get(second!.number)![7]).toBe("'+31 Rotterdam");
  });

  it('when a filter is refused by the list, then the export refuses it the same way (400, in the request’s language)', async () => {
    for (const query of [
      'sortBy=password',
      'sortOrder=sideways',
      'trackingNumber=1Z99',
      `search=${'a'.repeat(101)}`,
    ]) {
      const listed = await admin.get(`/api/receipts?${query}`, { headers: DUTCH });
      expectError(
        await admin.get(`/api/receipts/export.csv?${query}`, { headers: DUTCH }),
        400,
        'VALIDATION_ERROR',
        listed.body.message,
      );
    }
    expectError(
      await admin.get('/api/receipts/export.csv?sortBy=password'),
      400,
      'VALIDATION_ERROR',
      /^sortBy must be one of /,
    );
  });

  it('when nobody is signed in, then 401 in the envelope and no data', async () => {
    const response = await new ApiClient(portal).get('/api/receipts/export.csv');
    expectError(response, 401, 'AUTHENTICATION_ERROR');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
