/**
 * Another request's transaction, held open by the test: work started meanwhile meets its locks as it
 * would meet a concurrent change, and the test decides when it commits. PostgreSQL only: SQLite's
 * transactions take turns as a whole (nothing waits on one row there), so on SQLite the transaction
 * commits at once and the work runs after it.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import { eventually } from './api-steps';
import type { InProcessPortal } from './in-process';

export interface HeldTransaction {
  /** Settles once `count` statements of the portal wait for a lock, or every one of `work` has settled without waiting. */
  untilBlocked(count: number, work: Array<Promise<unknown>>): Promise<void>;
  /** Commits the held transaction. */
  release(): Promise<void>;
}

export async function holdTransaction(
  portal: InProcessPortal,
  statements: (transaction: Transaction) => Promise<void>,
): Promise<HeldTransaction> {
  const { db } = portal.portal;
  if (db.isSqlite) {
    await db.sequelize.transaction(statements);
    return { untilBlocked: async () => {}, release: async () => {} };
  }
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let ready!: () => void;
  const holding = new Promise<void>((resolve) => (ready = resolve));
  const committed = db.sequelize.transaction(async (transaction) => {
    await statements(transaction);
    ready();
    await released;
  });
  await Promise.race([holding, committed]);
  return {
    async untilBlocked(count, work) {
      let settled = 0;
      for (const each of work)
        each.then(
          () => (settled += 1),
          () => (settled += 1),
        );
      await eventually(
        async () => {
          const [row] = await db.sequelize.query<{ waiting: string }>(
            `SELECT COUNT(*) AS "waiting" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`,
            { type: QueryTypes.SELECT },
          );
          return { waiting: Number(row!.waiting), settled };
        },
        ({ waiting, settled: done }) => waiting >= count || done === work.length,
      );
    },
    async release() {
      release();
      await committed;
    },
  };
}

/** Holds the lock of one row (FOR UPDATE), as a transaction changing it would. */
export const holdRowLock = (portal: InProcessPortal, table: string, id: number) =>
  holdTransaction(portal, async (transaction) => {
    if (portal.portal.db.isSqlite) return;
    await portal.portal.db.sequelize.query(
      `SELECT "id" FROM "${table}" WHERE "id" = :id FOR UPDATE`,
      { replacements: { id }, transaction },
    );
  });
