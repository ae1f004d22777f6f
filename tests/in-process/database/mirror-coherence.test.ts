/**
 * Two portals on one database, as two processes run: what one portal's sync changes, the other answers within
 * seconds, its cached answers and list orders included (each process follows the mirror version).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startInProcessPortal,
  startSyncEnded,
  type InProcessPortal,
} from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import { allReceipts, eventually, signedInAdmin, waitForMirror } from '../../support/api-steps';
import { stallLimit } from '../../support/test-pace';

const APP_SECRET = 'mirror-coherence-test-secret-0123456789abcdef';
let syncing: InProcessPortal;
let reading: InProcessPortal;
let syncingAdmin: ApiClient;
let readingAdmin: ApiClient;

beforeAll(async () => {
  syncing = await startInProcessPortal({
    APP_SECRET,
    SANDBOX_RECEIPTS: '120',
    SANDBOX_CONTROL: 'true',
    SYNC_INTERVAL_SECONDS: '3600',
    SANDBOX_CHANGE_SECONDS: '86400',
  });
  syncingAdmin = await signedInAdmin(syncing);
  await waitForMirror(syncingAdmin);
  await startSyncEnded(syncing);
  // The second process only reads: its provider cannot be reached, so it never syncs itself.
  reading = await startInProcessPortal({
    APP_SECRET,
    DATABASE_URL: syncing.databaseUrl,
    PROVIDER: 'http',
    PROVIDER_URL: 'http://127.0.0.1:9',
    SYNC_INTERVAL_SECONDS: '3600',
  });
  readingAdmin = await signedInAdmin(reading);
}, stallLimit(180_000));

afterAll(async () => {
  await reading?.stop();
  await syncing?.stop();
});

const byStatus = 'sortBy=status&sortOrder=desc';
const summary = (receipts: Array<Record<string, any>>) =>
  receipts.map((receipt) => `${receipt.id}:${receipt.status}`);

describe('two processes on one database', () => {
  it('when one process syncs a change, then the other, which cannot sync, follows it: its cached answers and list order too', async () => {
    const statsPath = '/api/receipts/stats';
    const firstPage = `/api/receipts?limit=7&${byStatus}`;
    await readingAdmin.get(statsPath);
    await readingAdmin.get(firstPage);
    expect((await readingAdmin.get(firstPage)).body.meta.cached).toBe(true);
    const before = summary(await allReceipts(readingAdmin, byStatus));
    expect(summary(await allReceipts(syncingAdmin, byStatus))).toEqual(before);

    for (let window = 0; window < 5; window += 1)
      expect((await new ApiClient(syncing).post('/sandbox/control/advance')).status).toBe(200);
    const sync = await syncingAdmin.post('/api/sync');
    expect(sync.status).toBe(200);
    expect(sync.body.data.written).toBeGreaterThan(0);
    const expected = summary(await allReceipts(syncingAdmin, byStatus));
    const expectedStats = (await syncingAdmin.get(statsPath)).body.data;
    expect(expected).not.toEqual(before);

    // How soon it follows is the machine's to decide; that it follows, without a sync of its own, is the rule.
    await eventually(
      async () => summary(await allReceipts(readingAdmin, byStatus)),
      (now) => JSON.stringify(now) === JSON.stringify(expected),
    );
    expect((await readingAdmin.get(statsPath)).body.data).toEqual(expectedStats);
    expect(summary((await readingAdmin.get(firstPage)).body.data)).toEqual(expected.slice(0, 7));
  });

  it('when a process has just started, then its first look at the mirror version keeps the answers it cached', async () => {
    // A third process, started after the syncs: the version it finds is the one it answers from.
    const started = await startInProcessPortal({
      APP_SECRET,
      DATABASE_URL: syncing.databaseUrl,
      PROVIDER: 'http',
      PROVIDER_URL: 'http://127.0.0.1:9',
      SYNC_INTERVAL_SECONDS: '3600',
    });
    try {
      const admin = await signedInAdmin(started);
      const page = `/api/receipts?limit=5&${byStatus}`;
      expect((await admin.get(page)).body.meta.cached).toBe(false);
      // What its poll does every second: the version is the one it started with, so the cache stays.
      await started.portal.mirror.follow();
      expect((await admin.get(page)).body.meta.cached).toBe(true);
    } finally {
      await started.stop();
    }
  });
});
