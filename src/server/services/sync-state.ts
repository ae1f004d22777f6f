/** The one row of mirror bookkeeping: cursor, last success, last error, import and demo dates. */
import type { InferAttributes, Transaction } from 'sequelize';
import { SyncState } from '../db/models';

type SyncStateFields = Omit<InferAttributes<SyncState>, 'id'>;

const EMPTY: SyncStateFields = {
  cursor: null,
  lastSuccessAt: null,
  lastFullSyncAt: null,
  lastErrorAt: null,
  lastError: null,
  lastConsigneeImportAt: null,
  demoUsersCreatedAt: null,
};

export async function readSyncState(transaction?: Transaction): Promise<SyncStateFields> {
  const row = await SyncState.findByPk(1, { raw: true, transaction });
  return row ?? EMPTY;
}

export async function saveSyncState(fields: Partial<SyncStateFields>, transaction?: Transaction): Promise<void> {
  const [row] = await SyncState.findOrCreate({ where: { id: 1 }, defaults: { id: 1, ...EMPTY }, transaction });
  await row.update(fields, { transaction });
}
