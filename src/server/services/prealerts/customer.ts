/**
 * A customer's pre-alerts: a package announced on its way to the warehouse for one of their
 * consignees, with its purchase invoice if they like. A customer lists, reads, makes, changes and
 * withdraws only their own consignees' (staff read all); each write is audited and told to the
 * provider, and a package that already came is linked at once.
 */
import { QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  PREALERT_WRITES_PER_WINDOW,
  PREALERTS_WAITING_PER_USER,
  type Prealert,
  type PrealertInput,
  type PrealertList,
  type PrealertListQuery,
} from '~/shared/prealerts';
import { paginationOf } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';
import { recordAudit, selfActor } from '../audit';
import type { LoginLimiter } from '../accounts';
import { enqueueJobs, type Outbox } from '../outbox';
import { visibleConsigneeIds, type ScopeDeps, type LastSyncTime } from '../receipts';
import { forwardJob } from './forwarding';
import { removeInvoiceFile, type NewInvoice } from './invoices';
import { linkPrealertToReceipt } from './matching';
import {
  auditTarget,
  countPrealerts,
  lockPrealert,
  prealertInScope,
  readPrealertRows,
  scopeCondition,
  toPrealert,
  type PrealertRow,
} from './rows';

export interface PrealertDeps extends ScopeDeps {
  clock: Clock;
  outbox: Outbox;
  loginLimiter: Pick<LoginLimiter, 'admitRequest'>;
  config: Pick<Config, 'uploadsDir' | 'prealertStaleDays'>;
  lastSync: LastSyncTime;
}

/** A page of the user's pre-alerts (their consignees'), newest first. */
export async function listPrealerts(
  deps: ScopeDeps,
  user: PublicUser,
  query: PrealertListQuery,
): Promise<PrealertList> {
  const consigneeIds = await visibleConsigneeIds(deps, user);
  const status =
    query.status === undefined
      ? ''
      : query.status === 'received'
        ? ' AND p."receiptId" IS NOT NULL'
        : ' AND p."receiptId" IS NULL';
  const where = `${scopeCondition(consigneeIds)}${status}`;
  const replacements = { consigneeIds };
  const [rows, total] = await Promise.all([
    readPrealertRows(deps.db, where, replacements, {
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    }),
    countPrealerts(deps.db, where, replacements),
  ]);
  return { data: rows.map(toPrealert), pagination: paginationOf(query.page, query.limit, total) };
}

export async function getPrealert(
  deps: ScopeDeps,
  user: PublicUser,
  id: number,
): Promise<Prealert> {
  return toPrealert(await prealertInScope(deps, user, id));
}

/** The consignee must be one the user sees (for a customer: one of their own); any other is refused alike. */
async function requireOwnConsignee(
  deps: ScopeDeps,
  user: PublicUser,
  consigneeId: number,
  transaction: Transaction,
): Promise<void> {
  const consigneeIds = await visibleConsigneeIds(deps, user, transaction);
  const known = await deps.db.models.Consignee.findByPk(consigneeId, {
    attributes: ['id'],
    transaction,
  });
  if (!known || (consigneeIds !== null && !consigneeIds.includes(consigneeId))) {
    const message = m.prealert_consignee_not_yours();
    throw new AppError('VALIDATION_ERROR', message, {
      details: [{ field: 'consigneeId', message }],
    });
  }
}

/** The same package announced twice for one consignee is one pre-alert. */
function duplicateTracking(error: unknown, trackingNumber: string): unknown {
  if (!(error instanceof UniqueConstraintError)) return error;
  const message = m.prealert_tracking_duplicate({ trackingNumber });
  return new AppError('CONFLICT', message, { details: [{ field: 'trackingNumber', message }] });
}

/** A receipt of the pre-alert's consignee that already holds its package, if one came before it was made. */
async function receiptHoldingPackage(
  db: Database,
  prealert: { consigneeId: number; trackingNumber: string },
  transaction: Transaction,
): Promise<number | null> {
  const [row] = await db.sequelize.query<{ id: number }>(
    `SELECT r."id" FROM "receipts" r JOIN "packages" k ON k."receiptId" = r."id"
      WHERE k."trackingKey" = :trackingNumber AND r."consigneeId" = :consigneeId
      ORDER BY r."id" LIMIT 1`,
    { type: QueryTypes.SELECT, replacements: prealert, transaction },
  );
  return row ? Number(row.id) : null;
}

/** The fields a pre-alert stores from what the customer sent. */
const storedFields = (input: PrealertInput) => ({
  consigneeId: input.consigneeId,
  carrier: input.carrier,
  trackingNumber: input.trackingNumber,
  shipper: input.shipper,
  description: input.description,
  declaredValueCents: input.declaredValue,
});

const invoiceFields = (invoice: NewInvoice | null) => ({
  invoiceFileName: invoice?.fileName ?? null,
  invoiceOriginalName: invoice?.originalName ?? null,
  invoiceContentType: invoice?.contentType ?? null,
  invoiceSize: invoice?.size ?? null,
});

/**
 * Counts one write of the customer's against PREALERT_WRITES_PER_WINDOW: each may store an invoice
 * and tells the provider.
 */
async function admitPrealertWrite(deps: PrealertDeps, user: PublicUser): Promise<void> {
  if (
    !(await deps.loginLimiter.admitRequest(
      `pre-alert writes of user ${user.id}`,
      PREALERT_WRITES_PER_WINDOW,
    ))
  ) {
    throw new AppError('RATE_LIMITED', m.limits_prealert_writes());
  }
}

/**
 * A new pre-alert for one of the customer's consignees, with the invoice already stored (null without
 * one). A package that already came is linked at once; any other is told to the provider.
 */
export async function createPrealert(
  deps: PrealertDeps,
  user: PublicUser,
  input: PrealertInput,
  invoice: NewInvoice | null,
  clientAddress: string | null,
): Promise<Prealert> {
  const { db, clock } = deps;
  await admitPrealertWrite(deps, user);
  const id = await db.sequelize
    .transaction(async (transaction) => {
      // The customer's row stays locked until the end (PostgreSQL; SQLite's immediate transactions already
      // take turns), so two creations at once cannot both slip under the limit.
      await db.models.User.findByPk(user.id, {
        attributes: ['id'],
        lock: transaction.LOCK.UPDATE,
        transaction,
      });
      const waiting = await db.models.Prealert.count({
        where: { userId: user.id, receiptId: null },
        transaction,
      });
      if (waiting >= PREALERTS_WAITING_PER_USER)
        throw new AppError(
          'CONFLICT',
          m.limits_prealerts_waiting({ max: PREALERTS_WAITING_PER_USER }),
        );
      await requireOwnConsignee(deps, user, input.consigneeId, transaction);
      const now = new Date(clock.now());
      const created = await db.models.Prealert.create(
        {
          userId: user.id,
          ...storedFields(input),
          ...invoiceFields(invoice),
          createdAt: now,
          updatedAt: now,
        },
        { transaction },
      );
      const arrivedOn = await receiptHoldingPackage(db, input, transaction);
      const linked =
        arrivedOn !== null &&
        (await linkPrealertToReceipt(
          deps,
          { prealertId: created.id, receiptId: arrivedOn, matchedBy: 'arrival' },
          transaction,
          false,
        ));
      // A package that is here already needs no announcing.
      if (!linked) await enqueueJobs(deps, [forwardJob(created.id)], transaction);
      await recordAudit(
        deps,
        selfActor(user, clientAddress),
        {
          action: 'prealert.created',
          target: `pre-alert ${created.id} (${created.trackingNumber})`,
        },
        transaction,
      );
      return created.id;
    })
    .catch((error: unknown) => {
      throw duplicateTracking(error, input.trackingNumber);
    });
  return getPrealert(deps, user, id);
}

/** Only a pre-alert still waiting for its package may change or go. */
function requireExpected(row: PrealertRow): void {
  if (row.receiptId !== null) throw new AppError('CONFLICT', m.prealert_already_received());
}

/**
 * Changes a waiting pre-alert: every field as sent; a new invoice replaces the one on file, and
 * `removeInvoice` drops it. The provider is told of the change (it may have had the earlier one).
 */
export async function updatePrealert(
  deps: PrealertDeps,
  user: PublicUser,
  id: number,
  input: PrealertInput,
  invoice: NewInvoice | null,
  clientAddress: string | null,
): Promise<Prealert> {
  const { db, clock } = deps;
  await admitPrealertWrite(deps, user);
  const replaced = await db.sequelize
    .transaction(async (transaction) => {
      await lockPrealert(db, id, transaction);
      const row = await prealertInScope(deps, user, id, transaction);
      requireExpected(row);
      await requireOwnConsignee(deps, user, input.consigneeId, transaction);
      const keepsInvoice = invoice === null && !input.removeInvoice;
      const [updated] = await db.models.Prealert.update(
        {
          ...storedFields(input),
          ...(keepsInvoice ? {} : invoiceFields(invoice)),
          updatedAt: new Date(clock.now()),
        },
        { where: { id, receiptId: null }, transaction },
      );
      // Linked by a sync between the read and now.
      if (updated !== 1) throw new AppError('CONFLICT', m.prealert_already_received());
      const arrivedOn = await receiptHoldingPackage(db, input, transaction);
      const linked =
        arrivedOn !== null &&
        (await linkPrealertToReceipt(
          deps,
          { prealertId: id, receiptId: arrivedOn, matchedBy: 'arrival' },
          transaction,
        ));
      // A link tells the provider itself.
      if (!linked) await enqueueJobs(deps, [forwardJob(id)], transaction);
      await recordAudit(
        deps,
        selfActor(user, clientAddress),
        { action: 'prealert.updated', target: auditTarget(row) },
        transaction,
      );
      return keepsInvoice ? null : row.invoiceFileName;
    })
    .catch((error: unknown) => {
      throw duplicateTracking(error, input.trackingNumber);
    });
  // Once the change is stored, the file it replaced is nobody's.
  await removeInvoiceFile(deps, replaced);
  return getPrealert(deps, user, id);
}

/** Withdraws a waiting pre-alert, its invoice with it; the provider is told. */
export async function deletePrealert(
  deps: PrealertDeps,
  user: PublicUser,
  id: number,
  clientAddress: string | null,
): Promise<void> {
  const { db } = deps;
  const invoiceFileName = await db.sequelize.transaction(async (transaction) => {
    await lockPrealert(db, id, transaction);
    const row = await prealertInScope(deps, user, id, transaction);
    requireExpected(row);
    const removed = await db.models.Prealert.destroy({
      where: { id, receiptId: null },
      transaction,
    });
    // Linked by a sync between the read and now.
    if (removed !== 1) throw new AppError('CONFLICT', m.prealert_already_received());
    await enqueueJobs(deps, [forwardJob(id)], transaction);
    await recordAudit(
      deps,
      selfActor(user, clientAddress),
      { action: 'prealert.deleted', target: auditTarget(row) },
      transaction,
    );
    return row.invoiceFileName;
  });
  await removeInvoiceFile(deps, invoiceFileName);
}
