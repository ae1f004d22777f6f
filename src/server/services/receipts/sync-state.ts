/** The one row of mirror bookkeeping: cursor, last success, last error, import and demo dates. */
import type { InferAttributes, Transaction } from 'sequelize';
import type { Database } from '../../db/database';
import type { Logger } from '../../logger';
import type { SyncState } from '../../db/models';
import { RECENT_ROWS_MAX_AGE_MS } from '../../db/recent-rows';

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

export async function readSyncState(
  { db }: { db: Database },
  transaction?: Transaction,
): Promise<SyncStateFields> {
  const row = await db.models.SyncState.findByPk(1, { raw: true, transaction });
  return row ?? EMPTY;
}

/** The later of two ISO times: a read that began before this process's own sync never undoes it. */
const later = (known: string | null, seen: string | null) =>
  known !== null && (seen === null || Date.parse(known) >= Date.parse(seen)) ? known : seen;

/**
 * The last successful sync's time (ISO) as this process knows it. Every list and statistics answer
 * carries it, so it is never a query per request: this process's own syncs set it at once, the
 * database is read on first use, and again at most once a second (in the background, the known time
 * answering meanwhile) for syncs of other processes on the same database.
 */
export class LastSyncTime {
  private known: { at: string | null; readAt: number } | undefined;
  private rereading: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  remember(at: string | null): void {
    this.known = {
      at: later(this.known?.at ?? null, at),
      readAt: this.known?.readAt ?? performance.now(),
    };
  }

  async read(): Promise<string | null> {
    if (!this.known) await this.reread();
    else if (performance.now() - this.known.readAt >= RECENT_ROWS_MAX_AGE_MS) {
      this.reread().catch((error) =>
        this.log.warn({ component: 'sync', err: error }, 'The last sync time could not be read'),
      );
    }
    return this.known?.at ?? null;
  }

  private reread(): Promise<void> {
    this.rereading ??= (async () => {
      const readAt = performance.now();
      const row = await this.db.models.SyncState.findByPk(1, {
        attributes: ['lastSuccessAt'],
        raw: true,
      });
      const at = row?.lastSuccessAt ? new Date(row.lastSuccessAt).toISOString() : null;
      this.known = { at: later(this.known?.at ?? null, at), readAt };
    })().finally(() => {
      this.rereading = undefined;
    });
    return this.rereading;
  }
}

export async function saveSyncState(
  { db, lastSync }: { db: Database; lastSync: LastSyncTime },
  fields: Partial<SyncStateFields>,
  transaction?: Transaction,
): Promise<void> {
  const [row] = await db.models.SyncState.findOrCreate({
    where: { id: 1 },
    defaults: { id: 1, ...EMPTY },
    transaction,
  });
  await row.update(fields, { transaction });
  const { lastSuccessAt } = fields;
  if (!lastSuccessAt) return;
  const remember = () => lastSync.remember(lastSuccessAt.toISOString());
  if (transaction) transaction.afterCommit(remember);
  else remember();
}
