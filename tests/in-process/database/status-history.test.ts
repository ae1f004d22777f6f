/**
 * Status history: the mirror records every status it sees a receipt take, and
 * GET /api/receipts/{id} answers it oldest first, in the caller's scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import { advanceUntilDeletion } from '../../support/sandbox-steps';
import {
  allReceipts,
  createUser,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
  eventually,
} from '../../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '120',
    SANDBOX_CONTROL: 'true',
    SYNC_INTERVAL_SECONDS: '1',
    SYNC_FULL_INTERVAL_SECONDS: '3',
    SANDBOX_CHANGE_SECONDS: '86400',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
});

afterAll(async () => {
  await portal?.stop();
});

type Entry = { status: string; at: string };
const historyOf = async (id: number): Promise<Entry[]> =>
  (await admin.get(`/api/receipts/${id}`)).body.data.history;

describe('status history', () => {
  it('when a receipt is first mirrored, then its history is its current status, once', async () => {
    const receipts = await allReceipts(admin);
    for (const receipt of receipts.slice(0, 10)) {
      const response = await admin.get(`/api/receipts/${receipt.id}`);
      expect(response.status).toBe(200);
      expect(response.body.data.history).toEqual([
        {
          status: receipt.status,
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);
    }
    const [counts] = await queryDatabase<{ receipts: number; entries: number }>(
      portal,
      'SELECT (SELECT COUNT(*) FROM receipts) AS receipts, (SELECT COUNT(*) FROM receipt_status_changes) AS entries',
    );
    expect(counts!.entries).toBe(counts!.receipts);
  });

  it('when the provider moves statuses, then each change is added once, oldest first, and quiet syncs add nothing', async () => {
    const before = new Map((await allReceipts(admin)).map((receipt) => [receipt.id, receipt]));
    const { advanced } = (await admin.post('/sandbox/control/advance')).body as {
      advanced: number[];
    };
    const moved = await eventually(
      async () => {
        const now = new Map((await allReceipts(admin)).map((receipt) => [receipt.id, receipt]));
        return advanced.filter(
          (id) => now.has(id) && before.has(id) && now.get(id)!.status !== before.get(id)!.status,
        );
      },
      (ids) => ids.length > 0,
    );
    const id = moved[0]!;
    const history = await historyOf(id);
    expect(history.map((entry) => entry.status)).toEqual([
      before.get(id)!.status,
      (await admin.get(`/api/receipts/${id}`)).body.data.status,
    ]);
    expect(Date.parse(history[1]!.at)).toBeGreaterThan(Date.parse(history[0]!.at));

    // Several syncs later, a full pass among them, nothing is recorded twice.
    for (const full of [false, true, false]) await portal.portal.syncRuns.syncReceipts({ full });
    expect(await historyOf(id)).toEqual(history);
    const duplicates = await queryDatabase(
      portal,
      'SELECT receiptId, status, version FROM receipt_status_changes GROUP BY receiptId, status, version HAVING COUNT(*) > 1',
    );
    expect(duplicates).toEqual([]);
  });

  it('when the provider deletes a receipt, then its history goes with it', async () => {
    const changes = await advanceUntilDeletion(admin);
    // A receipt added by these same windows may be the one deleted; the mirror may never have had it.
    const deleted = changes.deleted.filter((id) => !changes.added.includes(id));
    expect(deleted.length).toBeGreaterThan(0);
    await eventually(
      () => queryDatabase(portal, `SELECT id FROM receipts WHERE id IN (${deleted.join(',')})`),
      (rows) => rows.length === 0,
    );
    expect(
      await queryDatabase(
        portal,
        `SELECT id FROM receipt_status_changes WHERE receiptId IN (${deleted.join(',')})`,
      ),
    ).toEqual([]);
  });

  it("when a customer asks for another consignee's receipt, then 404 and no history", async () => {
    const viewer = await createUser(admin, 'historyviewer');
    const [receipt] = await allReceipts(admin);
    expectError(
      await (await signIn(portal, viewer)).get(`/api/receipts/${receipt!.id}`),
      404,
      'NOT_FOUND',
      'Receipt not found',
    );
  });
});
