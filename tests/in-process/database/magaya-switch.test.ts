/**
 * A portal that read the contract before is moved to Magaya: its first Magaya sync reads everything
 * (the place it kept is the contract's), removes what Magaya does not have, and numbers Magaya's
 * receipts above the old ones, so an old receipt's number never opens another.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxGuid } from '~/server/provider/sandbox/magaya';
import { eventually, queryDatabase } from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';

const ENV = { SANDBOX_RECEIPTS: '60', SANDBOX_CHANGE_SECONDS: '86400' };

let portal: InProcessPortal | undefined;

afterAll(async () => {
  await portal?.stop();
});

describe('moving a portal from the contract to Magaya', () => {
  it("when a portal that mirrored the contract syncs from Magaya, then the mirror is Magaya's, numbered above the old receipts", async () => {
    // The contract's sandbox connects itself and syncs in the background.
    const contract = await startInProcessPortal({ ...ENV, SYNC_INTERVAL_SECONDS: '86400' });
    await eventually(
      () =>
        queryDatabase<{ lastSuccessAt: string | null }>(
          contract,
          'SELECT "lastSuccessAt" FROM "sync_state"',
        ),
      (rows) => Boolean(rows[0]?.lastSuccessAt),
    );
    const before = await queryDatabase<{ id: number }>(contract, 'SELECT "id" FROM "receipts"');
    const highest = Math.max(...before.map((row) => Number(row.id)));
    expect(before.length).toBeGreaterThan(0);
    await contract.stop({ keepDir: true });

    portal = await startInProcessPortal(
      { ...ENV, SANDBOX_PROTOCOL: 'magaya' },
      { background: false, dir: contract.dir },
    );
    const result = await portal.portal.syncRuns.syncReceipts();
    expect(result.deleted).toBe(before.length);
    const store = portal.portal.sandbox!.currentStore();
    const online = store
      .receivedBetween(0, Number.MAX_SAFE_INTEGER, false)
      .map((id) => store.receipt(id)!)
      .filter((receipt) => receipt.status !== 'Cancelled');
    const mirror = await queryDatabase<{ id: number; guid: string }>(
      portal,
      'SELECT r."id", m."guid" FROM "receipts" r JOIN "magaya_receipts" m ON m."id" = r."id"',
    );
    expect(mirror.map((row) => row.guid).sort()).toEqual(
      online.map((receipt) => sandboxGuid('receipt', receipt.id)).sort(),
    );
    expect(
      Number(
        (
          await queryDatabase<{ count: number }>(
            portal,
            'SELECT COUNT(*) AS "count" FROM "receipts"',
          )
        )[0]!.count,
      ),
    ).toBe(online.length);
    for (const row of mirror) expect(Number(row.id)).toBeGreaterThan(highest);
    // The next sync reads Magaya's change log, not everything again.
    expect((await portal.portal.syncRuns.syncReceipts()).full).toBe(false);
  });
});
