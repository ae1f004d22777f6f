/**
 * File imports (PROVIDER=file), on SQLite and PostgreSQL: exports made the ways real ones come (a BOM,
 * Windows-1252, title rows, Excel dates, quoted commas, one row per package, Magaya's XML) uploaded to
 * POST /api/admin/imports and dropped in IMPORT_DIR, and what the portal then shows.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  assignConsignees,
  createUser,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
} from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import {
  craftedZip,
  magayaXml,
  uploadImport,
  utf8CsvWithBom,
  windows1252Csv,
  xlsxOf,
} from '../../support/import-steps';

let portal: InProcessPortal;
let admin: ApiClient;
let importDir: string;

beforeAll(async () => {
  portal = await startInProcessPortal(
    { PROVIDER: 'file', IMPORT_DATE_ORDER: 'month-first' },
    { importScanMs: 200 },
  );
  importDir = portal.portal.config.importDir;
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
});

const receiptByNumber = async (number: string) =>
  (await allReceipts(admin, `search=${encodeURIComponent(number)}`)).find(
    (receipt) => receipt.number === number,
  );

/** A Dutch Excel's CSV: semicolons, a BOM, day-first dates, decimal commas, kilograms, one row per package, a quoted delimiter. */
const dutchExport = (status = 'In ontvangst') =>
  utf8CsvWithBom([
    'Ontvangstnummer;Ontvangstdatum;Verzender;Geadresseerde;Stuks;Gewicht (kg);Volume (m3);Bestemming;Status;Trackingnummer;Omschrijving',
    `WR-NL-1;15-06-2026;"Amazon; Miami";Jansen Trading;1;10,5;0,1;Paramaribo;${status};1ZA999001;"Schoenen, maat 42"`,
    `WR-NL-1;15-06-2026;"Amazon; Miami";Jansen Trading;2;4,5;0,05;Paramaribo;${status};1ZA998001;Boeken`,
    'WR-NL-2;03-07-2026;Best Buy;De Vries BV;1;2;0,01;Nickerie;In ontvangst;TBA123;Laptop',
  ]);

describe('CSV', () => {
  it('when a Dutch CSV is tried first, then the dry run answers the counts and the first rows as the portal reads them, and writes nothing', async () => {
    const response = await uploadImport(
      admin,
      { name: 'ontvangsten.csv', bytes: dutchExport() },
      { dryRun: 'true' },
    );
    expect(response.status).toBe(200);
    const result = response.body.data;
    expect(result).toMatchObject({
      dryRun: true,
      format: 'csv',
      created: 2,
      updated: 0,
      unchanged: 0,
      removed: 0,
      errors: [],
    });
    expect(result.preview).toHaveLength(3);
    expect(result.preview[0]).toMatchObject({
      row: 2,
      number: 'WR-NL-1',
      receivedDate: '2026-06-15T00:00:00.000Z',
      shipperName: 'Amazon; Miami',
      consigneeName: 'Jansen Trading',
      totalWeightValue: 23.15,
      totalVolumeValue: 3.531,
      description: 'Schoenen, maat 42',
    });
    expect(result.mapping).toMatchObject({
      number: 'Ontvangstnummer',
      totalWeightValue: 'Gewicht (kg)',
      trackingNumber: 'Trackingnummer',
    });
    expect(await queryDatabase(portal, 'SELECT * FROM receipts')).toEqual([]);
  });

  it('when it is imported, then the rows of one number are one receipt with its packages and summed pieces, weights in lb', async () => {
    const response = await uploadImport(admin, { name: 'ontvangsten.csv', bytes: dutchExport() });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      dryRun: false,
      created: 2,
      updated: 0,
      unchanged: 0,
      removed: 0,
      errors: [],
    });
    const receipt = await receiptByNumber('WR-NL-1');
    expect(receipt).toMatchObject({
      pieces: 3,
      totalWeightValue: 33.07,
      consigneeName: 'Jansen Trading',
      destination: 'Paramaribo',
      receivedDate: '2026-06-15T00:00:00.000Z',
    });
    expect(
      receipt!.commodities.map((item: { trackingNumber: string }) => item.trackingNumber),
    ).toEqual(['1ZA999001', '1ZA998001']);
  });

  it('when the same file is imported again, then nothing changes', async () => {
    const before = await queryDatabase(
      portal,
      'SELECT id, "providerUpdatedAt" FROM receipts ORDER BY id',
    );
    const response = await uploadImport(admin, { name: 'ontvangsten.csv', bytes: dutchExport() });
    expect(response.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 2, removed: 0 });
    expect(
      await queryDatabase(portal, 'SELECT id, "providerUpdatedAt" FROM receipts ORDER BY id'),
    ).toEqual(before);
  });

  it('when a row changes, then its receipt is updated and its status history records the change', async () => {
    const response = await uploadImport(admin, {
      name: 'ontvangsten.csv',
      bytes: dutchExport('Onderweg'),
    });
    expect(response.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const receipt = await receiptByNumber('WR-NL-1');
    const details = await admin.get(`/api/receipts/${receipt!.id}`);
    expect(details.body.data.history.map((entry: { status: string }) => entry.status)).toEqual([
      'In ontvangst',
      'Onderweg',
    ]);
  });

  it('when a Windows-1252 CSV with US dates and AM/PM comes, then its accents and dates are read, a bad row is refused with its row number and the good ones land', async () => {
    const response = await uploadImport(admin, {
      name: 'receipts.csv',
      bytes: windows1252Csv([
        'WR #,Date Received,Shipper,Consignee,Pcs,Weight (lbs),Volume (cu ft),Destination,Status,Tracking #,Description',
        'WR-US-1,06/13/2026 2:30 PM,"Walmart, Inc.",Café Müller,1,12.5,1.2,Paramaribo,OnHand,9400111,"Shoes, size 9"',
        'WR-US-2,13/13/2026 9:00 AM,Target,Café Müller,1,3,0.5,Paramaribo,OnHand,9400112,Toys',
        'WR-US-3,06/14/2026 9:00 AM,Target,=HYPERLINK("http://x"),1,abc,0.5,Paramaribo,OnHand,9400113,Toys',
      ]),
    });
    expect(response.status).toBe(200);
    const { created, errors } = response.body.data;
    expect(created).toBe(1);
    expect(errors).toEqual([
      {
        row: 3,
        column: 'Date Received',
        message: '"13/13/2026 9:00 AM" is not a date the portal can read.',
      },
      { row: 4, column: 'Weight (lbs)', message: '"abc" is not a number the portal can read.' },
    ]);
    expect(await receiptByNumber('WR-US-1')).toMatchObject({
      consigneeName: 'Café Müller',
      shipperName: 'Walmart, Inc.',
      receivedDate: '2026-06-13T14:30:00.000Z',
      status: 'On hand',
    });
    expect(await receiptByNumber('WR-US-3')).toBeUndefined();
  });

  it('when a cell starts like a formula, then it is kept as text and stays guarded in the CSV export', async () => {
    const response = await uploadImport(admin, {
      name: 'formula.csv',
      bytes: utf8CsvWithBom([
        'Receipt Number,Received Date,Shipper,Consignee',
        'WR-F-1,2026-06-20,=cmd|calc,@Evil',
      ]),
    });
    expect(response.body.data.created).toBe(1);
    expect(await receiptByNumber('WR-F-1')).toMatchObject({
      shipperName: '=cmd|calc',
      consigneeName: '@Evil',
    });
    const exported = await admin.get('/api/receipts/export.csv?search=WR-F-1');
    expect(exported.body).toContain("'=cmd|calc");
    expect(exported.body).toContain("'@Evil");
  });
});

describe('XLSX', () => {
  it('when an Excel list view has title rows, date cells and number cells, then the header is found below them and the row errors carry the sheet’s row numbers', async () => {
    const bytes = await xlsxOf(
      ['Warehouse Receipts', 'Printed 06/30/2026'],
      [
        'Number',
        'Created On',
        'Shipper Name',
        'Consignee Name',
        'Total Pieces',
        'Total Weight (kg)',
        'Status',
      ],
      [
        ['WR-X-1', new Date(Date.UTC(2026, 5, 1)), 'eBay', 'Jansen Trading', 3, 10, 'InTransit'],
        ['WR-X-2', 'not a date', 'eBay', 'Jansen Trading', 1, 1, 'InTransit'],
        [
          'WR-X-3',
          new Date(Date.UTC(2026, 5, 2)),
          { formula: '1+1', result: 2 },
          'Jansen Trading',
          1,
          2.5,
          'Delivered',
        ],
      ],
    );
    const response = await uploadImport(admin, { name: 'list.xlsx', bytes });
    // Status and body together: a refusal shows its message.
    expect({ status: response.status, body: response.body }).toMatchObject({ status: 200 });
    expect(response.body.data).toMatchObject({
      format: 'xlsx',
      created: 2,
      errors: [
        {
          row: 5,
          column: 'Created On',
          message: '"not a date" is not a date the portal can read.',
        },
      ],
    });
    expect(await receiptByNumber('WR-X-1')).toMatchObject({
      receivedDate: '2026-06-01T00:00:00.000Z',
      pieces: 3,
      totalWeightValue: 22.05,
      status: 'In-Transit',
    });
    expect(await receiptByNumber('WR-X-3')).toMatchObject({ shipperName: '=1+1' });
  });

  it('when the workbook has several tabs, then the first tab’s rows are imported and the other tabs are not', async () => {
    const header = ['Number', 'Created On', 'Consignee Name', 'Total Pieces'];
    const bytes = await xlsxOf(
      [],
      header,
      [['WR-TAB-1', new Date(Date.UTC(2026, 6, 1)), 'Jansen Trading', 2]],
      ['Summary', 'Notes', 'Shippers', 'Consignees', 'Old'].map((name, index) => ({
        name,
        rows: [header, [`WR-TAB-${index + 2}`, '07/01/2026', 'Jansen Trading', 1]],
      })),
    );
    const response = await uploadImport(admin, { name: 'tabs.xlsx', bytes });
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 200,
      body: { data: { format: 'xlsx', created: 1, errors: [] } },
    });
    expect(await receiptByNumber('WR-TAB-1')).toMatchObject({ pieces: 2 });
    expect(await receiptByNumber('WR-TAB-2')).toBeUndefined();
  });

  it('when a long sheet’s names have accents, then every name arrives whole', async () => {
    const names = Array.from({ length: 600 }, (_, index) => `Coöpératïe Sérénité Ëlïsé ${index}`);
    const bytes = await xlsxOf(
      [],
      ['Number', 'Created On', 'Consignee Name', 'Shipper Name'],
      names.map((name, index) => [`WR-ACC-${index}`, '07/02/2026', name, `Café Ñandú ${index}`]),
    );
    const response = await uploadImport(admin, { name: 'accents.xlsx', bytes });
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 200,
      body: { data: { created: names.length, errors: [] } },
    });
    const imported = (await allReceipts(admin, 'search=WR-ACC-')).map((receipt) => [
      receipt.consigneeName,
      receipt.shipperName,
    ]);
    expect(imported.sort()).toEqual(
      names.map((name, index) => [name, `Café Ñandú ${index}`]).sort(),
    );
  });

  it('when a zip declares that it inflates past the limit, inflates past what it declares, or hides an entry from its directory, then it is refused before it is read', async () => {
    const workbook = { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') };
    const honestBomb = craftedZip([
      workbook,
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(1024), declaredSize: 0xffff_fff0 },
    ]);
    const lyingBomb = craftedZip([
      workbook,
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(8 * 1024 * 1024), declaredSize: 1024 },
    ]);
    const hiddenBomb = craftedZip([
      { name: 'xl/sharedStrings.xml', data: Buffer.alloc(8 * 1024 * 1024), hidden: true },
      workbook,
    ]);
    for (const bytes of [honestBomb, lyingBomb, hiddenBomb]) {
      const response = await uploadImport(admin, { name: 'bomb.xlsx', bytes });
      expectError(response, 400, 'VALIDATION_ERROR', /unpacks to more than the portal reads/);
    }
  });
});

describe('Magaya XML', () => {
  it('when Magaya’s WarehouseReceipts export is imported, then it is read with the adapter’s mapping', async () => {
    const bytes = magayaXml([
      {
        guid: 'a1',
        number: 'WR-M-1',
        createdOn: '2026-06-10T10:00:00-04:00',
        consignee: 'Jansen Trading',
        shipper: 'Apple',
        status: 'OnHand',
        items: [
          { tracking: 'M-TRK-1', description: 'Phone', pieces: 1, weightKg: 1 },
          { tracking: 'M-TRK-2', description: 'Case', pieces: 2, weightKg: 0.5 },
        ],
      },
    ]);
    const response = await uploadImport(admin, { name: 'export.xml', bytes });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ format: 'xml', created: 1, errors: [] });
    expect(await receiptByNumber('WR-M-1')).toMatchObject({
      pieces: 3,
      totalWeightValue: 3.3,
      status: 'On hand',
      destination: 'Paramaribo',
      receivedDate: '2026-06-10T14:00:00.000Z',
    });
  });

  it('when the XML declares entities (a billion laughs, an external entity), then it is refused', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><WarehouseReceipts>&lol2;</WarehouseReceipts>';
    const external =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><WarehouseReceipts><WarehouseReceipt GUID="x"><Number>&x;</Number></WarehouseReceipt></WarehouseReceipts>';
    for (const text of [laughs, external]) {
      const response = await uploadImport(admin, { name: 'evil.xml', bytes: Buffer.from(text) });
      expectError(response, 400, 'VALIDATION_ERROR', /DOCTYPE/);
    }
  });
});

describe('columns and mapping', () => {
  const ownHeaders = ['Ref,When,Customer,Sender', 'OWN-1,2026-06-01,Jansen Trading,DHL'];

  it('when required fields cannot be placed, then 400 names them with the file’s headers', async () => {
    const response = await uploadImport(
      admin,
      { name: 'own.csv', bytes: utf8CsvWithBom(ownHeaders) },
      { dryRun: 'true' },
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    const fields = response.body.details.map((issue: { field: string }) => issue.field);
    expect(fields).toEqual(
      expect.arrayContaining(['mapping.number', 'mapping.receivedDate', 'headers.0', 'headers.3']),
    );
  });

  it('when the admin maps the columns, then the file imports and the mapping is offered for the next file of that source', async () => {
    const mapping = JSON.stringify({
      number: 'Ref',
      receivedDate: 'When',
      consigneeName: 'Customer',
      shipperName: 'Sender',
    });
    const first = await uploadImport(
      admin,
      { name: 'own.csv', bytes: utf8CsvWithBom(ownHeaders) },
      { mapping },
    );
    expect(first.status).toBe(200);
    expect(first.body.data.created).toBe(1);
    const next = await uploadImport(
      admin,
      {
        name: 'own-2.csv',
        bytes: utf8CsvWithBom([...ownHeaders, 'OWN-2,2026-06-02,Jansen Trading,UPS']),
      },
      { dryRun: 'true' },
    );
    expect(next.status).toBe(200);
    expect(next.body.data).toMatchObject({
      created: 1,
      unchanged: 1,
      mapping: { number: 'Ref', shipperName: 'Sender' },
    });
  });
});

describe('a full list', () => {
  it('when a file is marked as the complete list, then the receipts it does not name are removed', async () => {
    const count = (
      await queryDatabase<{ n: number }>(portal, 'SELECT COUNT(*) AS n FROM receipts')
    )[0]!.n;
    const dry = await uploadImport(
      admin,
      { name: 'ontvangsten.csv', bytes: dutchExport('Onderweg') },
      { full: 'true', dryRun: 'true' },
    );
    expect(dry.body.data).toMatchObject({ unchanged: 2, removed: Number(count) - 2 });
    const response = await uploadImport(
      admin,
      { name: 'ontvangsten.csv', bytes: dutchExport('Onderweg') },
      { full: 'true' },
    );
    expect(response.body.data).toMatchObject({ unchanged: 2, removed: Number(count) - 2 });
    expect((await allReceipts(admin)).map((receipt) => receipt.number).sort()).toEqual([
      'WR-NL-1',
      'WR-NL-2',
    ]);
  });
});

describe('who may import, and what is refused', () => {
  it('when a customer tries, then 403; a stranger, 401', async () => {
    const viewer = await signIn(portal, await createUser(admin, 'importviewer', 'viewer'));
    expectError(
      await uploadImport(viewer, { name: 'a.csv', bytes: dutchExport() }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await uploadImport(new ApiClient(portal), { name: 'a.csv', bytes: dutchExport() }),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(await viewer.get('/api/admin/imports'), 403, 'FORBIDDEN');
  });

  it('when the file is neither CSV, XLSX nor XML, then 400; over 50 MB, 413', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expectError(
      await uploadImport(admin, { name: 'photo.csv', bytes: png }),
      400,
      'VALIDATION_ERROR',
      /neither a CSV/,
    );
    const zip = craftedZip([{ name: 'readme.txt', data: Buffer.from('hello') }]);
    expectError(
      await uploadImport(admin, { name: 'a.xlsx', bytes: zip }),
      400,
      'VALIDATION_ERROR',
      /neither a CSV/,
    );
    const huge = Buffer.alloc(50 * 1024 * 1024 + 1, 0x61);
    expectError(
      await uploadImport(admin, { name: 'huge.csv', bytes: huge }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('when the history is read, then each import says who imported which file, its counts and its row errors, downloadable as CSV', async () => {
    const history = await admin.get('/api/admin/imports');
    expect(history.status).toBe(200);
    const withErrors = history.body.data.find(
      (run: { fileName: string }) => run.fileName === 'receipts.csv',
    );
    expect(withErrors).toMatchObject({
      username: 'admin',
      via: 'upload',
      created: 1,
      errors: [{ row: 3 }, { row: 4 }],
    });
    const csv = await admin.get(`/api/admin/imports/${withErrors.id}/errors.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.body).toContain('4,Weight (lbs),');
    const audited = await queryDatabase<{ detail: string }>(
      portal,
      `SELECT detail FROM audit_entries WHERE action = 'receipts.imported'`,
    );
    expect(audited.map((entry) => JSON.parse(entry.detail))).toContainEqual({
      fileName: 'receipts.csv',
      imported: 1,
      updated: 0,
      deleted: 0,
      skipped: 2,
    });
  });
});

describe('customers and pre-alerts', () => {
  it('when a customer is assigned the consignee an import named, then they see its receipts', async () => {
    const consignees = (await admin.get('/api/consignees')).body.data as {
      id: number;
      name: string;
    }[];
    const jansen = consignees.find((consignee) => consignee.name === 'Jansen Trading');
    expect(jansen).toBeDefined();
    const user = await createUser(admin, 'jansen', 'viewer');
    const userId = (
      await queryDatabase<{ id: number }>(portal, "SELECT id FROM users WHERE username = 'jansen'")
    )[0]!.id;
    await assignConsignees(admin, userId, [jansen!.id]);
    const customer = await signIn(portal, user);
    expect((await allReceipts(customer)).map((receipt) => receipt.number)).toEqual(['WR-NL-1']);
  });
});

describe('what needs a live provider', () => {
  it('when Token Management is opened, then it shows the imports’ state in place of the OAuth2 cards, in English and Dutch', async () => {
    const page = await admin.get('/admin/tokens');
    expect(page.status).toBe(200);
    expect(page.body).toContain('This portal runs on imports (PROVIDER=file)');
    expect(page.body).toContain('ontvangsten.csv');
    expect(page.body).toContain(importDir);
    const dutch = await admin.get('/admin/tokens', { headers: { 'Accept-Language': 'nl' } });
    expect(dutch.body).toContain('Dit portaal draait op imports (PROVIDER=file)');
  });

  it('when a receipt is opened, then photos and documents say they are not available from imports, and its attachments list is empty', async () => {
    const receipt = await receiptByNumber('WR-NL-1');
    const page = await admin.get(`/receipts/${receipt!.id}`);
    expect(page.body).toContain('Photos and documents are not available from imports.');
    const attachments = await admin.get(`/api/receipts/${receipt!.id}/attachments`);
    expect(attachments.status).toBe(200);
    expect(attachments.body.data).toEqual([]);
  });

  it('when a package is searched, then the mirror’s packages answer', async () => {
    const response = await admin.get('/api/package-tracker/search?trackingNumber=1za-999-001');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      expect.objectContaining({ tracking_number: '1ZA999001', receipt_number: 'WR-NL-1' }),
    ]);
  });

  it('when the admin pre-alerts page is opened, then it says pre-alerts are matched on import and not forwarded', async () => {
    const page = await admin.get('/admin/prealerts');
    expect(page.body).toContain('there is no provider to forward them to');
  });

  it('when “Sync now” is asked, then the folder’s files are imported at once', async () => {
    await mkdir(importDir, { recursive: true });
    await writeFile(
      path.join(importDir, 'now.csv'),
      utf8CsvWithBom([
        'Receipt Number,Received Date,Consignee',
        'WR-S-1,2026-06-22,Jansen Trading',
      ]),
    );
    const response = await admin.post('/api/sync');
    expect(response.status).toBe(200);
    expect(await receiptByNumber('WR-S-1')).toBeDefined();
  });
});

describe('the watched folder', () => {
  it('when a file lands in IMPORT_DIR, then once its size settles it is imported and moved to done/, with its row errors beside it', async () => {
    await mkdir(importDir, { recursive: true });
    await writeFile(
      path.join(importDir, 'drop.csv'),
      utf8CsvWithBom([
        'Receipt Number,Received Date,Consignee,Shipper',
        'WR-D-1,2026-06-21,Jansen Trading,DHL',
        ',2026-06-21,Jansen Trading,DHL',
      ]),
    );
    const done = await eventually(
      () => readdir(path.join(importDir, 'done')).catch(() => [] as string[]),
      (names) => names.some((name) => name.endsWith('drop.csv')),
    );
    const errorsFile = done.find((name) => name.endsWith('drop.csv.errors.csv'));
    expect(errorsFile).toBeDefined();
    expect(await readFile(path.join(importDir, 'done', errorsFile!), 'utf8')).toContain(
      '3,Receipt Number,The receipt number is empty.',
    );
    expect(await receiptByNumber('WR-D-1')).toBeDefined();
    expect(await readdir(importDir)).not.toContain('drop.csv');
  });

  it('when a file there cannot be read, then it is moved to failed/ with the reason', async () => {
    await writeFile(
      path.join(importDir, 'photo.png'),
      Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    );
    const failed = await eventually(
      () => readdir(path.join(importDir, 'failed')).catch(() => [] as string[]),
      (names) => names.some((name) => name.endsWith('photo.png.errors.csv')),
    );
    const errorsFile = failed.find((name) => name.endsWith('.errors.csv'))!;
    expect(await readFile(path.join(importDir, 'failed', errorsFile), 'utf8')).toContain(
      'neither a CSV',
    );
  });
});

describe('with another provider', () => {
  it('when the portal does not run on imports, then the import endpoint answers 409 saying imports are for PROVIDER=file', async () => {
    const other = await startInProcessPortal({}, { background: false });
    try {
      const otherAdmin = await signedInAdmin(other);
      expectError(
        await uploadImport(otherAdmin, { name: 'a.csv', bytes: dutchExport() }),
        409,
        'CONFLICT',
        /PROVIDER=file/,
      );
      expectError(await otherAdmin.get('/api/admin/imports'), 409, 'CONFLICT', /PROVIDER=file/);
    } finally {
      await other.stop();
    }
  });
});
