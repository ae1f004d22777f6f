/**
 * PROVIDER=magaya's rows (migration 0028): the GUID → number maps the adapter keeps so that a receipt
 * and a consignee keep their numbers across syncs, and the connection: the API user an admin entered
 * (the password encrypted as the OAuth tokens are, src/server/encryption.ts) and the last session's outcome.
 */
import { Op, type Transaction } from 'sequelize';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { decryptValue, encryptValue } from '../../encryption';
import type {
  MagayaConsigneeIdRow,
  MagayaIdMap,
  MagayaReceiptIdRow,
  MagayaSessionLog,
} from '../../provider/magaya/client';
import type { MagayaError } from '../../provider/magaya/soap';

const ROW_ID = 1;
/** GUIDs asked for in one query. */
const GUID_CHUNK = 500;
const PASSWORD_FIELD = 'magayaPassword';

export class MagayaIdStore implements MagayaIdMap {
  constructor(private readonly deps: { db: Database }) {}

  async allReceipts(): Promise<MagayaReceiptIdRow[]> {
    const rows = await this.deps.db.models.MagayaReceiptId.findAll({ raw: true });
    return rows.map((row) => ({
      ...row,
      versionAt: row.versionAt === null ? null : new Date(row.versionAt),
    }));
  }

  async receiptsByGuid(guids: string[]): Promise<MagayaReceiptIdRow[]> {
    const found: MagayaReceiptIdRow[] = [];
    for (let start = 0; start < guids.length; start += GUID_CHUNK) {
      const rows = await this.deps.db.models.MagayaReceiptId.findAll({
        where: { guid: { [Op.in]: guids.slice(start, start + GUID_CHUNK) } },
        raw: true,
      });
      found.push(
        ...rows.map((row) => ({
          ...row,
          versionAt: row.versionAt === null ? null : new Date(row.versionAt),
        })),
      );
    }
    return found;
  }

  async receiptGuid(id: number): Promise<string | null> {
    const row = await this.deps.db.models.MagayaReceiptId.findByPk(id, {
      attributes: ['guid'],
      raw: true,
    });
    return row?.guid ?? null;
  }

  /**
   * Above every number given, and every receipt the mirror holds: a portal that read another
   * provider before never gives a Magaya receipt an old receipt's number.
   */
  async lastReceiptId(): Promise<number> {
    const { MagayaReceiptId, ReceiptRecord } = this.deps.db.models;
    const highest = await Promise.all([MagayaReceiptId.max('id'), ReceiptRecord.max('id')]);
    return Math.max(0, ...highest.map((last: unknown) => Number(last ?? 0) || 0));
  }

  allConsignees(): Promise<MagayaConsigneeIdRow[]> {
    return this.deps.db.models.MagayaConsigneeId.findAll({ raw: true });
  }

  async save(receipts: MagayaReceiptIdRow[], consignees: MagayaConsigneeIdRow[]): Promise<void> {
    const { db } = this.deps;
    await db.sequelize.transaction(async (transaction) => {
      const queries = db.sequelize.getQueryInterface();
      // Plain rows, as the mirror's pages are written: 100,000 instances would cost seconds.
      for (let start = 0; start < receipts.length; start += GUID_CHUNK)
        await queries.bulkInsert(
          'magaya_receipts',
          receipts.slice(start, start + GUID_CHUNK),
          {
            transaction,
            updateOnDuplicate: ['digest', 'versionAt'],
            upsertKeys: ['id'],
          } as object,
          db.models.MagayaReceiptId.getAttributes(),
        );
      if (consignees.length > 0)
        await queries.bulkInsert(
          'magaya_consignees',
          consignees,
          { transaction, updateOnDuplicate: ['name'], upsertKeys: ['id'] } as object,
          db.models.MagayaConsigneeId.getAttributes(),
        );
    });
  }
}

/** The API user and the last session, as Token Management shows them. */
export interface MagayaConnectionState {
  /** The user the portal signs in as; null when none is set. */
  username: string | null;
  /** Where it comes from: the environment (MAGAYA_USERNAME), or what an admin entered. */
  source: 'environment' | 'admin' | null;
  lastSessionAt: Date | null;
  /** The last session's error code; null when it succeeded or none ran yet. */
  lastSessionError: string | null;
}

export class MagayaConnectionStore implements MagayaSessionLog {
  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      key: Buffer;
      /** MAGAYA_USERNAME / MAGAYA_PASSWORD: when set, they are the user, and an admin's entry is not asked for. */
      fromEnvironment: { username: string; password: string } | null;
    },
  ) {}

  /**
   * The user to sign in as: the environment's, else the one an admin entered; null when neither is
   * set (or it no longer decrypts).
   */
  async credentials(): Promise<{ username: string; password: string } | null> {
    if (this.deps.fromEnvironment) return this.deps.fromEnvironment;
    const row = await this.deps.db.models.MagayaConnectionRecord.findByPk(ROW_ID, { raw: true });
    const password = row?.password
      ? decryptValue(this.deps.key, row.password, PASSWORD_FIELD)
      : null;
    return row?.username && password !== null ? { username: row.username, password } : null;
  }

  async state(): Promise<MagayaConnectionState> {
    const row = await this.deps.db.models.MagayaConnectionRecord.findByPk(ROW_ID, { raw: true });
    const environment = this.deps.fromEnvironment;
    const username = environment?.username ?? row?.username ?? null;
    return {
      username,
      source: environment ? 'environment' : username ? 'admin' : null,
      lastSessionAt: row?.lastSessionAt ? new Date(row.lastSessionAt) : null,
      lastSessionError: row?.lastSessionError ?? null,
    };
  }

  get editable(): boolean {
    return this.deps.fromEnvironment === null;
  }

  /** An admin's user and password; the last session's outcome is forgotten, as it was another user's. */
  async saveCredentials(
    username: string,
    password: string,
    transaction?: Transaction,
  ): Promise<void> {
    await this.deps.db.models.MagayaConnectionRecord.upsert(
      {
        id: ROW_ID,
        username,
        password: encryptValue(this.deps.key, password, PASSWORD_FIELD),
        lastSessionAt: null,
        lastSessionError: null,
        updatedAt: new Date(this.deps.clock.now()),
      },
      { transaction },
    );
  }

  async record(error: MagayaError | null): Promise<void> {
    const { MagayaConnectionRecord } = this.deps.db.models;
    const outcome = {
      lastSessionAt: new Date(this.deps.clock.now()),
      lastSessionError: error?.code.slice(0, 64) ?? null,
    };
    const [changed] = await MagayaConnectionRecord.update(outcome, { where: { id: ROW_ID } });
    if (changed === 0) await MagayaConnectionRecord.upsert({ id: ROW_ID, ...outcome });
  }
}
