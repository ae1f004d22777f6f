/** Receipts from the mirror: the list with its filters, one receipt, and who may see which. */
import { Op, fn, col, where as sqlWhere, literal, type WhereOptions } from 'sequelize';
import type { Commodity, Receipt, ReceiptList, ReceiptQuery } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import { sequelize } from '../db';
import { ConsigneeAssignment, PackageRecord, ReceiptRecord } from '../db/models';
import { AppError } from '../http/errors';
import { trackingKey } from './mirror-rows';
import { cachedAnswer } from './response-cache';
import { readSyncState } from './sync-state';

/** Retry-After for "the mirror has nothing yet": about one sync attempt away. */
const NEVER_SYNCED_RETRY_SECONDS = 30;

/** Which consignees' receipts a user sees: null for all (admin, admin-viewer), else the assigned ids. */
export async function visibleConsigneeIds(user: PublicUser): Promise<number[] | null> {
  if (user.role !== 'viewer') return null;
  const rows = await ConsigneeAssignment.findAll({ attributes: ['consigneeId'], where: { userId: user.id }, order: [['consigneeId', 'ASC']], raw: true });
  return rows.map((row) => row.consigneeId);
}

export function scopeWhere(consigneeIds: number[] | null): WhereOptions<ReceiptRecord> {
  return consigneeIds === null ? {} : { consigneeId: { [Op.in]: consigneeIds } };
}

/** Cache key part for a scope: users who see the same consignees share answers. */
export const scopeKey = (consigneeIds: number[] | null) => (consigneeIds === null ? 'all' : consigneeIds.join(','));

/** The mirror answers only once it has been filled; before that the provider is the problem. */
export async function requireMirror(): Promise<void> {
  if (!(await readSyncState()).lastSuccessAt) {
    throw new AppError('EXTERNAL_API_ERROR', 'Receipts are not available yet: the logistics provider has not answered. Please try again shortly.', {
      retryAfter: NEVER_SYNCED_RETRY_SECONDS,
    });
  }
}

const containsFunction = sequelize.getDialect() === 'sqlite' ? 'instr' : 'strpos';

function contains(column: string, needle: string) {
  return sqlWhere(fn(containsFunction, col(column), needle), Op.gt, 0);
}

function listWhere(consigneeIds: number[] | null, query: ReceiptQuery): WhereOptions<ReceiptRecord> {
  const conditions: WhereOptions<ReceiptRecord>[] = [scopeWhere(consigneeIds)];
  if (query.search) conditions.push(contains('searchText', query.search.toLowerCase()));
  if (query.trackingNumber) {
    const key = sequelize.escape(trackingKey(query.trackingNumber));
    conditions.push({ id: { [Op.in]: literal(`(SELECT "receiptId" FROM "packages" WHERE ${containsFunction}("trackingKey", ${key}) > 0)`) } });
  }
  return { [Op.and]: conditions };
}

type ReceiptRow = Omit<ReceiptRecord, 'searchText' | 'providerUpdatedAt'>;
const RECEIPT_COLUMNS = [
  'id', 'number', 'receivedDate', 'shipperName', 'consigneeId', 'consigneeName', 'pieces', 'totalWeightValue',
  'totalVolumeValue', 'destination', 'status', 'modeOfTransportation', 'originName', 'packageCount',
] as const;

function toReceipt(row: ReceiptRow, commodities: Commodity[]): Receipt {
  return {
    id: row.id,
    number: row.number,
    receivedDate: row.receivedDate ? new Date(row.receivedDate).toISOString() : '',
    shipperName: row.shipperName,
    consigneeName: row.consigneeName,
    pieces: row.pieces,
    totalWeightValue: row.totalWeightValue,
    totalVolumeValue: row.totalVolumeValue,
    destination: row.destination,
    status: row.status,
    modeOfTransportation: row.modeOfTransportation,
    origin: { name: row.originName },
    commodities,
  };
}

async function commoditiesOf(receiptIds: number[]): Promise<Map<number, Commodity[]>> {
  const byReceipt = new Map<number, Commodity[]>();
  if (receiptIds.length === 0) return byReceipt;
  const rows = await PackageRecord.findAll({
    attributes: ['receiptId', 'description', 'trackingNumber', 'pieces', 'totalWeightValue', 'totalVolumeValue'],
    where: { receiptId: { [Op.in]: receiptIds } },
    order: [['receiptId', 'ASC'], ['position', 'ASC']],
    raw: true,
  });
  for (const { receiptId, ...commodity } of rows) {
    const list = byReceipt.get(receiptId) ?? [];
    list.push(commodity);
    byReceipt.set(receiptId, list);
  }
  return byReceipt;
}

export async function listReceipts(user: PublicUser, query: ReceiptQuery): Promise<ReceiptList> {
  const startedAt = performance.now();
  await requireMirror();
  const consigneeIds = await visibleConsigneeIds(user);
  const key = `receipts|${scopeKey(consigneeIds)}|${JSON.stringify(query)}`;
  const { value, cached } = await cachedAnswer(key, async () => {
    const where = listWhere(consigneeIds, query);
    const [totalItems, rows] = await Promise.all([
      ReceiptRecord.count({ where }),
      ReceiptRecord.findAll({
        attributes: [...RECEIPT_COLUMNS],
        where,
        order: [[query.sortBy, query.sortOrder], ['id', query.sortOrder]],
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
        raw: true,
      }),
    ]);
    const commodities = await commoditiesOf(rows.map((row) => row.id));
    const totalPages = Math.ceil(totalItems / query.limit);
    return {
      data: rows.map((row) => toReceipt(row, commodities.get(row.id) ?? [])),
      pagination: {
        currentPage: query.page,
        itemsPerPage: query.limit,
        totalItems,
        totalPages,
        hasNextPage: query.page < totalPages,
        hasPrevPage: query.page > 1,
      },
    };
  });
  return { ...value, meta: { cached, processingTime: Math.round((performance.now() - startedAt) * 10) / 10 } };
}

export async function getReceipt(user: PublicUser, id: number): Promise<Receipt> {
  await requireMirror();
  const consigneeIds = await visibleConsigneeIds(user);
  const row = await ReceiptRecord.findOne({ attributes: [...RECEIPT_COLUMNS], where: { [Op.and]: [{ id }, scopeWhere(consigneeIds)] }, raw: true });
  // Someone else's receipt is indistinguishable from one that does not exist.
  if (!row) throw new AppError('NOT_FOUND', 'Receipt not found');
  const commodities = await commoditiesOf([row.id]);
  return toReceipt(row, commodities.get(row.id) ?? []);
}
