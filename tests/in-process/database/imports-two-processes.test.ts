/**
 * File imports at the same moment (PROVIDER=file), on SQLite and PostgreSQL: two portals on one
 * database, as two processes run, one importing from its watched folder while the other takes an
 * upload, and in one portal its folder beside an upload. Every receipt of both files lands with its own
 * id, each consignee once, both runs in the history.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/api-client';
import { queryDatabase, signedInAdmin } from '../../support/api-steps';
import { holdTransaction } from '../../support/held-transaction';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { uploadImport, utf8CsvWithBom } from '../../support/import-steps';
import { stallLimit } from '../../support/test-pace';

const APP_SECRET = 'imports-two-processes-test-secret-0123456789';
let folderPortal: InProcessPortal;
let uploadPortal: InProcessPortal;
let uploadAdmin: ApiClient;

beforeAll(async () => {
  // The test drives the folder itself: no timer looks at it meanwhile.
  folderPortal = await startInProcessPortal(
    { APP_SECRET, PROVIDER: 'file' },
    { background: false },
  );
  uploadPortal = await startInProcessPortal(
    { APP_SECRET, PROVIDER: 'file', DATABASE_URL: folderPortal.databaseUrl },
    { background: false },
  );
  uploadAdmin = await signedInAdmin(uploadPortal);
}, stallLimit(180_000));

afterAll(async () => {
  await uploadPortal?.stop();
  await folderPortal?.stop();
});

/** An export of `numbers`, the first to a consignee both files name, the others to `consignee`. */
const exportOf = (numbers: string[], consignee: string) =>
  utf8CsvWithBom([
    'Receipt Number,Received Date,Shipper,Consignee,Pcs,Weight (lbs),Tracking #',
    ...numbers.map(
      (number, index) =>
        `${number},2026-06-20,Amazon,${index === 0 ? 'Shared Trading' : consignee},1,5,TRK-${number}`,
    ),
  ]);

/** Drops `bytes` in the folder portal's IMPORT_DIR and imports it at once, as "Sync now" does. */
async function importFromFolder(name: string, bytes: Uint8Array) {
  const dir = folderPortal.portal.config.importDir;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), bytes);
  return folderPortal.portal.importFolder!.scan({ immediate: true });
}

interface MirroredReceipt {
  id: number;
  number: string;
  consigneeId: number;
  consigneeName: string;
}

const mirrored = (prefix: string) =>
  queryDatabase<MirroredReceipt>(
    folderPortal,
    'SELECT id, number, "consigneeId", "consigneeName" FROM receipts WHERE number LIKE ? ORDER BY number',
    [`${prefix}-%`],
  );

async function expectLanded(prefix: string, numbers: string[], consignee: string) {
  const receipts = await mirrored(prefix);
  expect(receipts.map((receipt) => receipt.number)).toEqual(numbers);
  expect(receipts.map((receipt) => receipt.consigneeName)).toEqual(
    numbers.map((_, index) => (index === 0 ? 'Shared Trading' : consignee)),
  );
  const consignees = await queryDatabase<{ id: number; name: string }>(
    folderPortal,
    'SELECT id, name FROM consignees',
  );
  const idOf = new Map(consignees.map((row) => [row.name, Number(row.id)]));
  // Each receipt names the consignee row of its own consignee: no import overwrote the other's.
  for (const receipt of receipts)
    expect(Number(receipt.consigneeId)).toBe(idOf.get(receipt.consigneeName));
  const packages = await queryDatabase<{ receiptId: number; trackingNumber: string }>(
    folderPortal,
    `SELECT "receiptId", "trackingNumber" FROM packages WHERE "trackingNumber" LIKE ?`,
    [`TRK-${prefix}-%`],
  );
  expect(packages.map((row) => `${Number(row.receiptId)}:${row.trackingNumber}`).sort()).toEqual(
    receipts.map((receipt) => `${Number(receipt.id)}:TRK-${receipt.number}`).sort(),
  );
}

async function expectEveryoneOnce() {
  const receiptIds = await queryDatabase<{ id: number }>(folderPortal, 'SELECT id FROM receipts');
  const names = await queryDatabase<{ name: string }>(folderPortal, 'SELECT name FROM consignees');
  expect(new Set(receiptIds.map((row) => Number(row.id))).size).toBe(receiptIds.length);
  expect(names.map((row) => row.name).sort()).toEqual(
    [...new Set(names.map((row) => row.name))].sort(),
  );
}

/** The history's runs of `files`: file, how it came, receipts created. */
const runsOf = async (files: string[]) =>
  (
    await queryDatabase<{ fileName: string; via: string; created: number }>(
      folderPortal,
      'SELECT "fileName", via, created FROM imports ORDER BY "fileName"',
    )
  )
    .filter((row) => files.includes(row.fileName))
    .map((row) => `${row.fileName}:${row.via}:${Number(row.created)}`);

describe('two imports at the same moment', () => {
  it('when one process imports a file from its folder while another takes an upload, then both land completely, one after the other', async () => {
    const alpha = ['WR-A-1', 'WR-A-2', 'WR-A-3'];
    const beta = ['WR-B-1', 'WR-B-2', 'WR-B-3', 'WR-B-4'];
    // Both imports get as far as they may before either writes: the held transaction locks the tables
    // the first writes of an import touch (on SQLite it commits at once and the two simply run together).
    const held = await holdTransaction(folderPortal, async (transaction) => {
      if (folderPortal.portal.db.isSqlite) return;
      await folderPortal.portal.db.sequelize.query(
        'LOCK TABLE consignees, sync_lease IN EXCLUSIVE MODE',
        { transaction },
      );
    });
    const fromFolder = importFromFolder('alpha.csv', exportOf(alpha, 'Alpha Trading'));
    const uploaded = uploadImport(uploadAdmin, {
      name: 'beta.csv',
      bytes: exportOf(beta, 'Beta Trading'),
    });
    try {
      await held.untilBlocked(2, [fromFolder, uploaded]);
    } finally {
      await held.release();
    }

    const upload = await uploaded;
    expect(upload.status).toBe(200);
    expect(upload.body.data).toMatchObject({ created: 4, errors: [] });
    expect(await fromFolder).toEqual({ files: 1, written: 3, removed: 0 });
    await expectLanded('WR-A', alpha, 'Alpha Trading');
    await expectLanded('WR-B', beta, 'Beta Trading');
    await expectEveryoneOnce();
    expect(await runsOf(['alpha.csv', 'beta.csv'])).toEqual([
      'alpha.csv:folder:3',
      'beta.csv:upload:4',
    ]);
  });

  it('when one process imports from its folder while it takes an upload, then both land completely', async () => {
    const gamma = ['WR-C-1', 'WR-C-2'];
    const delta = ['WR-D-1', 'WR-D-2', 'WR-D-3'];
    const folderAdmin = await signedInAdmin(folderPortal);
    const [folderRun, upload] = await Promise.all([
      importFromFolder('gamma.csv', exportOf(gamma, 'Gamma Trading')),
      uploadImport(folderAdmin, { name: 'delta.csv', bytes: exportOf(delta, 'Delta Trading') }),
    ]);
    expect(upload.status).toBe(200);
    expect(upload.body.data).toMatchObject({ created: 3, errors: [] });
    expect(folderRun).toEqual({ files: 1, written: 2, removed: 0 });
    await expectLanded('WR-C', gamma, 'Gamma Trading');
    await expectLanded('WR-D', delta, 'Delta Trading');
    await expectEveryoneOnce();
    expect(await runsOf(['gamma.csv', 'delta.csv'])).toEqual([
      'delta.csv:upload:3',
      'gamma.csv:folder:2',
    ]);
  });
});
