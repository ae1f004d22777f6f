/** The one row of mirror bookkeeping: cursor, last success, last error, import and demo dates. */
import type { InferAttributes, Transaction } from 'sequelize';
import { SyncState } from '../db/models';
import { RECENT_ROWS_MAX_AGE_MS } from '../db/recent-rows';

type SyncStateFields = Omit<InferAttributes<SyncState>, 'id'>;

const EMPTY: SyncStateFields = {
  cursor: null,
  lastSuccessAt: null,
  lastWritten: null,
  lastDeleted: null,
  lastFullSyncAt: null,
  lastErrorAt: null,
  lastError: null,
  lastConsigneeImportAt: null,
  demoUsersCreatedAt: null,
  mirrorVersion: 0,
};

export async function readSyncState(transaction?: Transaction): Promise<SyncStateFields> {
  const row = await SyncState.findByPk(1, { raw: true, transaction });
  return row ?? EMPTY;
}

/**
 * The last successful sync's time (ISO) as this process knows it. Every list and statistics answer
 * carries it, so it is never a query per request: this process's own syncs set it at once, the
 * database is read on first use, and again at most once a second (in the background, the known time
 * answering meanwhile) for syncs of other processes on the same database.
 */
let lastSuccess: { at: string | null; readAt: number } | undefined;
let rereading: Promise<void> | undefined;

/** The later of two ISO times: a read that began before this process's own sync never undoes it. */
const later = (known: string | null, seen: string | null) => (known !== null && (seen === null || Date.parse(known) >= Date.parse(seen)) ? known : seen);

function rememberLastSuccess(at: string | null): void {
  lastSuccess = { at: later(lastSuccess?.at ?? null, at), readAt: lastSuccess?.readAt ?? performance.now() };
}

function rereadLastSuccess(): Promise<void> {
  rereading ??= (async () => {
    const readAt = performance.now();
    const row = await SyncState.findByPk(1, { attributes: ['lastSuccessAt'], raw: true });
    const at = row?.lastSuccessAt ? new Date(row.lastSuccessAt).toISOString() : null;
    lastSuccess = { at: later(lastSuccess?.at ?? null, at), readAt };
  })().finally(() => {
    rereading = undefined;
  });
  return rereading;
}

export async function readLastSyncedAt(): Promise<string | null> {
  if (!lastSuccess) await rereadLastSuccess();
  else if (performance.now() - lastSuccess.readAt >= RECENT_ROWS_MAX_AGE_MS) {
    rereadLastSuccess().catch((error) => console.warn('The last sync time could not be read:', error));
  }
  return lastSuccess?.at ?? null;
}

export async function saveSyncState(fields: Partial<SyncStateFields>, transaction?: Transaction): Promise<void> {
  const [row] = await SyncState.findOrCreate({ where: { id: 1 }, defaults: { id: 1, ...EMPTY }, transaction });
  await row.update(fields, { transaction });
  const { lastSuccessAt } = fields;
  if (!lastSuccessAt) return;
  const remember = () => rememberLastSuccess(lastSuccessAt.toISOString());
  if (transaction) transaction.afterCommit(remember);
  else remember();
}
