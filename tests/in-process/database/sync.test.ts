/** The mirror follows the provider: changes, new receipts, deletions, token expiry and an outage. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import { advanceUntilDeletion, type SandboxChanges } from '../../support/sandbox-steps';
import {
  allReceipts,
  databaseText,
  queryDatabase,
  signedInAdmin,
  waitForMirror,
  eventually,
} from '../../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;
let sandbox: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '200',
    SANDBOX_CONTROL: 'true',
    // Syncs every second, a full pass every three; the data moves only when a test says so.
    SYNC_INTERVAL_SECONDS: '1',
    SYNC_FULL_INTERVAL_SECONDS: '3',
    SANDBOX_CHANGE_SECONDS: '86400',
    // Access tokens outlive no sync: every call needs a refresh, and refresh tokens rotate.
    SANDBOX_ACCESS_TOKEN_SECONDS: '2',
  });
  admin = await signedInAdmin(portal);
  sandbox = new ApiClient(portal);
  await waitForMirror(admin);
});

afterAll(async () => {
  await portal?.stop();
});

async function advanceSandbox(): Promise<SandboxChanges> {
  const response = await sandbox.post('/sandbox/control/advance');
  expect(response.status).toBe(200);
  return response.body;
}

describe('sync', () => {
  it('when the provider advances statuses, adds and deletes receipts, then the mirror follows', async () => {
    const before = new Map((await allReceipts(admin)).map((receipt) => [receipt.id, receipt]));
    const change = await advanceUntilDeletion(sandbox);
    expect(change.advanced.length).toBeGreaterThan(0);
    expect(change.added.length).toBeGreaterThan(0);
    expect(change.deleted.length).toBeGreaterThan(0);

    const after = await eventually(
      async () => new Map((await allReceipts(admin)).map((receipt) => [receipt.id, receipt])),
      (mirror) =>
        change.added.every((id) => change.deleted.includes(id) || mirror.has(id)) &&
        change.deleted.every((id) => !mirror.has(id)),
    );
    const advancedStill = change.advanced.filter(
      (id) => !change.deleted.includes(id) && before.has(id),
    );
    expect(advancedStill.some((id) => after.get(id)!.status !== before.get(id)!.status)).toBe(true);
    for (const id of change.added) expect(before.has(id)).toBe(false);

    // A search of one character is answered from the search texts kept in memory: they follow the sync
    // too. Every receipt number starts "WR-", so "w" finds every receipt (read twice in case a later
    // sync comes between the two lists).
    const ids = async (query?: string) =>
      (await allReceipts(admin, query)).map((receipt) => receipt.id).sort((a, b) => a - b);
    const [everyId, foundByW] = await eventually(
      async () => [await ids(), await ids('search=w')],
      ([all, found]) => JSON.stringify(all) === JSON.stringify(found),
    );
    expect(foundByW).toEqual(everyId);
    expect(
      change.added
        .filter((id) => !change.deleted.includes(id))
        .every((id) => foundByW!.includes(id)),
    ).toBe(true);
    expect(change.deleted.some((id) => foundByW!.includes(id))).toBe(false);
  });

  it('when a sync changed data, then a cached answer is no longer served', async () => {
    const query = '/api/receipts?sortBy=number&sortOrder=asc&limit=7';
    await admin.get(query);
    expect((await admin.get(query)).body.meta.cached).toBe(true);
    await advanceSandbox();
    await eventually(
      () => admin.get(query),
      (response) => response.body.meta.cached === false,
    );
  });

  it('when access tokens expire between syncs, then the refresh token rotates and syncs keep succeeding', async () => {
    const read = () =>
      queryDatabase<{ refreshToken: string; lastSuccessAt: string }>(
        portal,
        'SELECT t.refreshToken, s.lastSuccessAt FROM provider_tokens t, sync_state s WHERE t.id = 1 AND s.id = 1',
      );
    const [first] = await read();
    await eventually(
      read,
      ([now]) =>
        now!.refreshToken !== first!.refreshToken && now!.lastSuccessAt !== first!.lastSuccessAt,
    );
  });

  it('when the provider revokes the access token, then the portal refreshes once and the live look-up still answers', async () => {
    expect((await sandbox.post('/sandbox/control/revoke')).status).toBe(200);
    const response = await admin.get('/api/package-tracker/search?trackingNumber=NOSUCHPACKAGE00');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: [] });
  });

  it('when the provider is down after a sync, then the mirror still answers and the live look-up is EXTERNAL_API_ERROR', async () => {
    expect((await sandbox.post('/sandbox/control/outage')).status).toBe(200);
    try {
      const list = await admin.get('/api/receipts');
      expect(list.status).toBe(200);
      expect(list.body.data.length).toBeGreaterThan(0);
      expect((await admin.get('/api/receipts/stats')).status).toBe(200);
      const lookUp = await admin.get('/api/package-tracker/search?trackingNumber=NOSUCHPACKAGE00');
      expect(lookUp.body).toMatchObject({ success: false, errorType: 'EXTERNAL_API_ERROR' });
      const [state] = await eventually(
        () =>
          queryDatabase<{ lastError: string | null }>(
            portal,
            'SELECT lastError FROM sync_state WHERE id = 1',
          ),
        ([row]) => Boolean(row?.lastError),
      );
      expect(state!.lastError).toBeTruthy();
    } finally {
      await sandbox.post('/sandbox/control/recover');
    }
  });

  it('when tokens are stored, then no JWT appears anywhere in the database files', async () => {
    const [row] = await queryDatabase<{ accessToken: string | null }>(
      portal,
      'SELECT accessToken FROM provider_tokens WHERE id = 1',
    );
    expect(row?.accessToken).toBeTruthy();
    // A JWT is two base64url JSON objects ('{"' → 'eyJ') joined by a dot.
    expect(await databaseText(portal)).not.toMatch(/eyJ[\w-]{8,}\.eyJ/);
  });
});
