/**
 * A pre-alert as the API shows it, read from its row with its consignee's name, its receipt's number
 * and its maker's name; the reads every concern of the pre-alerts shares, in a user's scope or not.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  centsToDollars,
  type AdminPrealert,
  type Carrier,
  type Prealert,
} from '~/shared/prealerts';
import type { PublicUser } from '~/shared/validation';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';
import { invoiceInfoOf, visibleConsigneeIds, type ScopeDeps } from '../receipts';

export interface PrealertRow {
  id: number;
  userId: number | null;
  consigneeId: number;
  carrier: Carrier;
  trackingNumber: string;
  shipper: string;
  description: string;
  declaredValueCents: number;
  invoiceFileName: string | null;
  invoiceOriginalName: string | null;
  invoiceContentType: string | null;
  invoiceSize: number | null;
  receiptId: number | null;
  matchedAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  consigneeName: string | null;
  receiptNumber: string | null;
  createdBy: string | null;
}

/**
 * A pre-alert with its consignee's name, its receipt's number and its maker's name. The receipt counts
 * only while it is the consignee's: a link that a sync made wrong (the receipt moved) never shows.
 */
export const SELECT_PREALERTS = `
  SELECT p."id", p."userId", p."consigneeId", p."carrier", p."trackingNumber", p."shipper",
         p."description", p."declaredValueCents",
         p."invoiceFileName", p."invoiceOriginalName", p."invoiceContentType", p."invoiceSize",
         p."receiptId", p."matchedAt", p."createdAt", p."updatedAt",
         c."name" AS "consigneeName", r."number" AS "receiptNumber", u."username" AS "createdBy"
    FROM "prealerts" p
    LEFT JOIN "consignees" c ON c."id" = p."consigneeId"
    LEFT JOIN "receipts" r ON r."id" = p."receiptId" AND r."consigneeId" = p."consigneeId"
    LEFT JOIN "users" u ON u."id" = p."userId"`;

export const isoTime = (value: Date | string) => new Date(value).toISOString();

export function toPrealert(row: PrealertRow): Prealert {
  const invoice = invoiceInfoOf(row);
  const receiptId = row.receiptId === null ? null : Number(row.receiptId);
  return {
    id: Number(row.id),
    status: receiptId === null ? 'expected' : 'received',
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    shipper: row.shipper,
    description: row.description,
    declaredValue: centsToDollars(Number(row.declaredValueCents)),
    consigneeId: Number(row.consigneeId),
    consigneeName: row.consigneeName ?? '',
    receiptId,
    receiptNumber: row.receiptNumber,
    hasInvoice: invoice !== null,
    invoice,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    matchedAt: row.matchedAt === null ? null : isoTime(row.matchedAt),
  };
}

export const toAdminPrealert = (row: PrealertRow): AdminPrealert => ({
  ...toPrealert(row),
  createdBy: row.createdBy,
});

/** The condition of a user's scope on `p`: their consignees' pre-alerts (staff: all). */
export function scopeCondition(consigneeIds: number[] | null): string {
  if (consigneeIds === null) return '1 = 1';
  return consigneeIds.length === 0 ? '1 = 0' : 'p."consigneeId" IN (:consigneeIds)';
}

export async function readPrealertRows(
  db: Database,
  where: string,
  replacements: Record<string, unknown>,
  options: { order?: string; limit?: number; offset?: number; transaction?: Transaction } = {},
): Promise<PrealertRow[]> {
  const page =
    options.limit === undefined ? '' : ` LIMIT ${options.limit} OFFSET ${options.offset ?? 0}`;
  return db.sequelize.query<PrealertRow>(
    `${SELECT_PREALERTS} WHERE ${where} ORDER BY ${options.order ?? 'p."createdAt" DESC, p."id" DESC'}${page}`,
    {
      type: QueryTypes.SELECT,
      replacements,
      transaction: options.transaction,
    },
  );
}

export async function countPrealerts(
  db: Database,
  where: string,
  replacements: Record<string, unknown>,
): Promise<number> {
  const [row] = await db.sequelize.query<{ count: number | string }>(
    `SELECT COUNT(*) AS "count" FROM "prealerts" p WHERE ${where}`,
    {
      type: QueryTypes.SELECT,
      replacements,
    },
  );
  return Number(row?.count ?? 0);
}

export const notFound = () => new AppError('NOT_FOUND', m.prealert_not_found());

/** One pre-alert in the user's scope; another consignee's is the same 404 as one that does not exist. */
export async function prealertInScope(
  deps: ScopeDeps,
  user: PublicUser,
  id: number,
  transaction?: Transaction,
): Promise<PrealertRow> {
  const consigneeIds = await visibleConsigneeIds(deps, user, transaction);
  const [row] = await readPrealertRows(
    deps.db,
    `p."id" = :id AND ${scopeCondition(consigneeIds)}`,
    { id, consigneeIds },
    { transaction },
  );
  if (!row) throw notFound();
  return row;
}

/**
 * Locks the pre-alert's row until the transaction ends (PostgreSQL; SQLite's immediate transactions
 * already take turns), before it is read for a change: two changes at once, each replacing the invoice
 * file it read, would otherwise both remove the same old file and leave one new file to nobody.
 */
export async function lockPrealert(
  db: Database,
  id: number,
  transaction: Transaction,
): Promise<void> {
  await db.models.Prealert.findByPk(id, {
    attributes: ['id'],
    lock: transaction.LOCK.UPDATE,
    transaction,
  });
}

export const auditTarget = (row: PrealertRow) => `pre-alert ${row.id} (${row.trackingNumber})`;
