/**
 * How fresh the mirror is (`meta.lastSyncedAt` on the list and the statistics) and
 * "Sync now" (POST /api/sync: admins only, answers what the sync wrote and removed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { advanceUntilDeletion, type SandboxChanges } from '../support/sandbox-steps';
import {
  createUser,
  expectError,
  signedInAdmin,
  signIn,
  waitForMirror,
  eventually,
} from '../support/api-steps';

const DUTCH = { headers: { 'Accept-Language': 'nl' } };

let portal: InProcessPortal;
let admin: ApiClient;
let sandbox: ApiClient;
let startedAt: number;

beforeAll(async () => {
  startedAt = Date.now();
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '120',
    SANDBOX_CONTROL: 'true',
    // A sync every 2 seconds, each a full pass (which also removes); the data moves only when a test says so.
    SYNC_INTERVAL_SECONDS: '2',
    SYNC_FULL_INTERVAL_SECONDS: '1',
    SANDBOX_CHANGE_SECONDS: '86400',
  });
  admin = await signedInAdmin(portal);
  sandbox = new ApiClient(portal);
  await waitForMirror(admin);
});

afterAll(async () => {
  await portal?.stop();
});

const syncedAt = (response: ApiResponse) => Date.parse(response.body.meta.lastSyncedAt);
const LIST = '/api/receipts?sortBy=number&sortOrder=asc&limit=5';

describe('meta.lastSyncedAt', () => {
  it('when the mirror has synced, then the list and the statistics carry the ISO time of the last sync beside their data', async () => {
    const list = await admin.get(LIST);
    const stats = await admin.get('/api/receipts/stats');
    for (const response of [list, stats]) {
      expect(response.status).toBe(200);
      expect(response.body.meta.lastSyncedAt).toMatch(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
      );
      expect(syncedAt(response)).toBeGreaterThanOrEqual(startedAt);
      expect(syncedAt(response)).toBeLessThanOrEqual(Date.now());
    }
    expect(Object.keys(stats.body).sort()).toEqual(['data', 'meta', 'success']);
    expect(stats.body.data.totalReceipts).toBeGreaterThan(0);
    expect(Object.keys(list.body.meta).sort()).toEqual([
      'cached',
      'lastSyncedAt',
      'processingTime',
    ]);
  });

  it('when syncs that change nothing run, then lastSyncedAt moves on, on a cached list answer too', async () => {
    await admin.get(LIST);
    const first = await admin.get(LIST);
    expect(first.body.meta.cached).toBe(true);
    const firstStats = await admin.get('/api/receipts/stats');

    const later = await eventually(
      () => admin.get(LIST),
      (response) => syncedAt(response) > syncedAt(first),
    );
    // Nothing changed, so the cache was kept: the same cached page now says a newer sync time.
    expect(later.body.meta.cached).toBe(true);
    expect(later.body.data).toEqual(first.body.data);
    await eventually(
      () => admin.get('/api/receipts/stats'),
      (response) => syncedAt(response) > syncedAt(firstStats),
    );
  });

  it('when another process on the same database syncs, then this one reports its time within about a second', async () => {
    // A second portal on the same files whose own syncs cannot succeed (its provider is unreachable and it
    // syncs on no schedule of its own): whatever sync time it reports, the first portal's syncs wrote.
    const other = await startInProcessPortal(
      { SYNC_INTERVAL_SECONDS: '3600', PROVIDER: 'http', PROVIDER_URL: 'http://127.0.0.1:9' },
      { dir: portal.dir },
    );
    try {
      const otherAdmin = await signedInAdmin(other);
      const seen = await otherAdmin.get(LIST);
      expect(seen.status).toBe(200);
      await eventually(
        () => otherAdmin.get(LIST),
        (response) => syncedAt(response) > syncedAt(seen),
        10_000,
      );
    } finally {
      await other.stop({ keepDir: true });
    }
  });
});

describe('POST /api/sync', () => {
  it('when an admin syncs now after the provider changed, then the answer says what the sync wrote and removed', async () => {
    let matched: { change: SandboxChanges; body: any } | undefined;
    // The provider is down while it changes, so that no scheduled sync takes the change first; it comes
    // back just before the sync now. Should a scheduled sync slip in between after all, try again.
    for (let attempt = 0; attempt < 3 && !matched; attempt += 1) {
      await sandbox.post('/sandbox/control/outage');
      const change = await advanceUntilDeletion(sandbox);
      // A full pass (the one that removes) is due a second after the last one: the portal's clock moves on.
      portal.clock.advance(1_100);
      await sandbox.post('/sandbox/control/recover');
      const response = await eventually(
        () => admin.post('/api/sync'),
        (answer) => answer.status === 200,
      );
      const written = new Set(
        [...change.advanced, ...change.added].filter((id) => !change.deleted.includes(id)),
      ).size;
      const deleted = change.deleted.filter((id) => !change.added.includes(id)).length;
      if (response.body.data.written === written && response.body.data.deleted === deleted)
        matched = { change, body: response.body };
    }
    expect(matched, 'no sync-now answer matched the provider change').toBeDefined();
    const { change, body } = matched!;
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success']);
    expect(Object.keys(body.data).sort()).toEqual([
      'deleted',
      'finishedAt',
      'full',
      'statusChanges',
      'written',
    ]);
    expect(body.data.full).toBe(true);
    // A new receipt's first status counts as a change; a receipt that moved on may keep its status.
    expect(body.data.statusChanges).toBeGreaterThanOrEqual(change.added.length);
    expect(body.data.statusChanges).toBeLessThanOrEqual(body.data.written);
    expect(body.message).toBe(
      `Sync finished. Written: ${body.data.written}, removed: ${body.data.deleted}.`,
    );
    expect(Date.parse(body.data.finishedAt)).toBeLessThanOrEqual(portal.clock.now());

    // The answers that follow already know this sync.
    const list = await admin.get(LIST);
    expect(syncedAt(list)).toBeGreaterThanOrEqual(Date.parse(body.data.finishedAt));
    const status = await admin.get('/api/sync');
    expect(status.status).toBe(200);
    expect(Date.parse(status.body.data.lastSyncedAt)).toBeGreaterThanOrEqual(
      Date.parse(body.data.finishedAt),
    );
    expect(status.body.data).toMatchObject({ lastError: null, lastErrorAt: null });
  });

  it('when an admin syncs now in Dutch, then the message is Dutch', async () => {
    const response = await admin.post('/api/sync', undefined, DUTCH);
    expect(response.status).toBe(200);
    expect(response.body.message).toMatch(
      /^Synchronisatie voltooid\. Bijgewerkt: \d+, verwijderd: \d+\.$/,
    );
  });

  it('when someone who is not an admin asks, then 403 for admin-viewers and viewers and 401 without a session', async () => {
    const viewerOnly = await createUser(admin, 'syncviewer', 'viewer');
    const adminViewer = await createUser(admin, 'syncadminviewer', 'admin-viewer');
    for (const user of [viewerOnly, adminViewer]) {
      const client = await signIn(portal, user);
      expectError(await client.post('/api/sync'), 403, 'FORBIDDEN');
      expectError(await client.get('/api/sync'), 403, 'FORBIDDEN');
    }
    const anonymous = new ApiClient(portal);
    expectError(await anonymous.post('/api/sync'), 401, 'AUTHENTICATION_ERROR');
    expectError(await anonymous.get('/api/sync'), 401, 'AUTHENTICATION_ERROR');
  });

  it('when the provider is down, then 503 EXTERNAL_API_ERROR with a clear message (Dutch in Dutch), and the status keeps the error', async () => {
    expect((await sandbox.post('/sandbox/control/outage')).status).toBe(200);
    try {
      // A scheduled sync that began before the outage may still end well: ask until one fails.
      const failed = await eventually(
        () => admin.post('/api/sync'),
        (response) => response.status !== 200,
      );
      expectError(
        failed,
        503,
        'EXTERNAL_API_ERROR',
        'The sync could not be completed: the logistics provider is not available right now. Please try again later.',
      );
      expect(failed.headers.get('retry-after')).toBe('30');
      expectError(
        await admin.post('/api/sync', undefined, DUTCH),
        503,
        'EXTERNAL_API_ERROR',
        'De synchronisatie kon niet worden voltooid: het logistieke systeem is op dit moment niet bereikbaar. Probeer het later opnieuw.',
      );
      const status = await admin.get('/api/sync');
      expect(status.body.data.lastError).toBeTruthy();
      expect(Date.parse(status.body.data.lastErrorAt)).toBeGreaterThan(
        Date.parse(status.body.data.lastSyncedAt),
      );
      // The mirror still answers, with the time of its last good sync.
      const list = await admin.get(LIST);
      expect(list.status).toBe(200);
      expect(list.body.meta.lastSyncedAt).toBe(status.body.data.lastSyncedAt);
    } finally {
      await sandbox.post('/sandbox/control/recover');
    }
    const recovered = await eventually(
      () => admin.post('/api/sync'),
      (response) => response.status === 200,
    );
    expect(recovered.body.data.written).toBeGreaterThanOrEqual(0);
    expect((await admin.get('/api/sync')).body.data).toMatchObject({
      lastError: null,
      lastErrorAt: null,
    });
  });
});
