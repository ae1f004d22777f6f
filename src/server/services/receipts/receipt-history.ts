/**
 * Receipts' status histories: recorded as the sync writes (its first reaction to a page), read with
 * a receipt's details.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { StatusHistoryEntry } from '~/shared/receipts';
import type { Database } from '../../db/database';
import type { PageReaction, StatusChange } from '../sync-reactions';

/**
 * Records the changes, each once: a change another sync recorded already (same receipt, version and
 * status) is skipped. Answers the ones recorded here, so only those are announced.
 */
export async function recordStatusChanges(
  { db }: { db: Database },
  changes: StatusChange[],
  transaction: Transaction,
): Promise<StatusChange[]> {
  if (changes.length === 0) return [];
  const rows = changes.map((change) => [change.receiptId, change.to, change.version, change.at]);
  const values = rows.map(() => '(?)').join(', ');
  const columns = '"receiptId", "status", "version", "at"';
  // SQLite: Sequelize runs a statement starting with INSERT without reading rows, so it is phrased as
  // WITH … INSERT … SELECT (WHERE true keeps ON CONFLICT from being read as part of the SELECT).
  // PostgreSQL types VALUES in a WITH as text, so it gets the plain form.
  const insert = db.isSqlite
    ? `WITH "change" (${columns}) AS (VALUES ${values})
    INSERT INTO "receipt_status_changes" (${columns}) SELECT * FROM "change" WHERE true`
    : `INSERT INTO "receipt_status_changes" (${columns}) VALUES ${values}`;
  const inserted = await db.sequelize.query<{ receiptId: number }>(
    `${insert} ON CONFLICT ("receiptId", "version", "status") DO NOTHING RETURNING "receiptId"`,
    { replacements: rows, type: QueryTypes.SELECT, transaction },
  );
  const recorded = new Set(inserted.map((row) => Number(row.receiptId)));
  return changes.filter((change) => recorded.has(change.receiptId));
}

/**
 * The sync's reaction to a page: records the statuses its receipts take, and forgets the histories of
 * the receipts it removed. The changes recorded here are its news: the webhooks and the digest tell only those.
 */
export function statusHistoryReaction({ db }: { db: Database }): PageReaction {
  return async (page, _news, transaction) => {
    if (page.removed.length > 0) await forgetStatusHistories({ db }, page.removed, transaction);
    return { statusChanges: await recordStatusChanges({ db }, page.statusChanges, transaction) };
  };
}

export async function forgetStatusHistories(
  { db }: { db: Database },
  receiptIds: number[],
  transaction: Transaction,
): Promise<void> {
  await db.models.ReceiptStatusChange.destroy({ where: { receiptId: receiptIds }, transaction });
}

/** Oldest first. */
export async function readStatusHistory(
  { db }: { db: Database },
  receiptId: number,
): Promise<StatusHistoryEntry[]> {
  return (await readStatusHistories({ db }, [receiptId])).get(receiptId) ?? [];
}

/**
 * The histories of several receipts in one query, each oldest first; inside `transaction` when the
 * caller is writing them.
 */
export async function readStatusHistories(
  { db }: { db: Database },
  receiptIds: number[],
  transaction?: Transaction,
): Promise<Map<number, StatusHistoryEntry[]>> {
  const histories = new Map<number, StatusHistoryEntry[]>();
  if (receiptIds.length === 0) return histories;
  const rows = await db.models.ReceiptStatusChange.findAll({
    attributes: ['receiptId', 'status', 'at'],
    where: { receiptId: receiptIds },
    order: [
      ['receiptId', 'ASC'],
      ['at', 'ASC'],
      ['id', 'ASC'],
    ],
    raw: true,
    transaction,
  });
  for (const row of rows) {
    const history = histories.get(row.receiptId) ?? [];
    history.push({ status: row.status, at: new Date(row.at).toISOString() });
    histories.set(row.receiptId, history);
  }
  return histories;
}
