/**
 * The sync announces each page to the reactions the composition root registered
 * (src/server/services/sync-reactions.ts): a reaction sees the page's outcome inside the page's
 * transaction, after the reactions registered before it, and one that fails rolls the whole page back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorPage, SyncNews } from '~/server/services/sync-reactions';
import { ApiClient } from '../../support/api-client';
import { queryDatabase, signedInAdmin, waitForMirror } from '../../support/api-steps';
import {
  startInProcessPortal,
  startSyncEnded,
  type InProcessPortal,
} from '../../support/in-process';

let portal: InProcessPortal;
let sandbox: ApiClient;

/** What the test's reaction saw of each page: the page, the news before it, the rows as its transaction reads them. */
const seen: Array<{ page: MirrorPage; news: SyncNews; stored: Map<number, string> }> = [];
/** While set, the test's reaction fails on a page that wrote receipts. */
let failure: Error | null = null;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '60',
    SANDBOX_CONTROL: 'true',
    // The first sync only: the test runs every other one itself, and the data moves only when it says so.
    SYNC_INTERVAL_SECONDS: '86400',
    SANDBOX_CHANGE_SECONDS: '86400',
  });
  await waitForMirror(await signedInAdmin(portal));
  await startSyncEnded(portal);
  sandbox = new ApiClient(portal);
  const { db } = portal.portal;
  // Registered last: it runs after the status history, the pre-alert links and the webhook events.
  portal.portal.syncReactions.inTransaction(async (page, news, transaction) => {
    const rows = await db.models.ReceiptRecord.findAll({
      attributes: ['id', 'status'],
      where: { id: page.written.map((receipt) => receipt.id) },
      raw: true,
      transaction,
    });
    seen.push({
      page,
      news: structuredClone(news),
      stored: new Map(rows.map((row) => [row.id, row.status])),
    });
    if (failure && page.written.length > 0) throw failure;
  });
});

afterAll(async () => {
  await portal?.stop();
});

/** Moves the sandbox's data on until some receipt that stays changes its status; answers those receipts. */
async function advanceStatuses(): Promise<number[]> {
  for (;;) {
    const response = await sandbox.post('/sandbox/control/advance');
    expect(response.status).toBe(200);
    const { advanced, deleted } = response.body as { advanced: number[]; deleted: number[] };
    const staying = advanced.filter((id) => !deleted.includes(id));
    if (staying.length > 0) return staying;
  }
}

const statusesOf = async (ids: number[]) =>
  new Map(
    (
      await queryDatabase<{ id: number; status: string }>(
        portal,
        `SELECT "id", "status" FROM "receipts" WHERE "id" IN (${ids.join(', ')})`,
      )
    ).map((row) => [Number(row.id), row.status]),
  );

const historyCount = async () =>
  Number(
    (
      await queryDatabase<{ count: number }>(
        portal,
        'SELECT COUNT(*) AS "count" FROM "receipt_status_changes"',
      )
    )[0]!.count,
  );

describe('the sync announces its pages', () => {
  it("when a page is written, then a registered reaction sees its outcome inside the page's transaction, with the history's news before it", async () => {
    const moved = await advanceStatuses();
    const before = await statusesOf(moved);
    seen.length = 0;
    const result = await portal.portal.syncRuns.syncReceipts();
    const pages = seen.filter(({ page }) => page.written.length > 0);
    const written = pages.flatMap(({ page }) => page.written.map((receipt) => receipt.id));
    expect(written).toEqual(expect.arrayContaining(moved));
    const changes = pages.flatMap(({ page }) => page.statusChanges);
    // Each changed status is announced with what it was and what it is now...
    for (const id of moved.filter((id) => before.has(id))) {
      expect(changes).toContainEqual(
        expect.objectContaining({
          receiptId: id,
          from: before.get(id),
          to: (await statusesOf([id])).get(id),
        }),
      );
    }
    for (const { page, news, stored } of pages) {
      // ...and the reaction reads the page's rows as they are written, inside its transaction,
      for (const change of page.statusChanges) expect(stored.get(change.receiptId)).toBe(change.to);
      // after the status history recorded the page's changes (its news).
      expect(news.statusChanges.map((change) => change.receiptId).sort()).toEqual(
        page.statusChanges.map((change) => change.receiptId).sort(),
      );
    }
    expect(result.statusChanges).toBe(changes.length);
  });

  it('when a reaction inside the transaction fails, then the page is rolled back: no receipt, status or history of it stays, and the next sync writes it', async () => {
    const moved = await advanceStatuses();
    const before = await statusesOf(moved);
    const entries = await historyCount();
    failure = new Error('A reaction failed on purpose');
    try {
      await expect(portal.portal.syncRuns.syncReceipts()).rejects.toThrow(
        'A reaction failed on purpose',
      );
    } finally {
      failure = null;
    }
    // The reaction ran after the others had written: their writes went with the page.
    expect(seen.at(-1)!.page.written.length).toBeGreaterThan(0);
    expect(await statusesOf(moved)).toEqual(before);
    expect(await historyCount()).toBe(entries);
    const [state] = await queryDatabase<{ lastError: string | null }>(
      portal,
      'SELECT "lastError" FROM "sync_state" WHERE "id" = 1',
    );
    expect(state!.lastError).toBe('A reaction failed on purpose');

    await portal.portal.syncRuns.syncReceipts();
    const after = await statusesOf(moved);
    expect(
      moved.filter((id) => before.has(id)).some((id) => after.get(id) !== before.get(id)),
    ).toBe(true);
    expect(await historyCount()).toBeGreaterThan(entries);
  });
});
