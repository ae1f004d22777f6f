/** Receipts from the mirror: the list with its filters, one receipt, and who may see which. */
import { QueryTypes, type InferAttributes } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { Commodity, Receipt, ReceiptDetails, ReceiptList, ReceiptQuery } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import { sequelize } from '../db';
import { ConsigneeAssignment, ReceiptRecord } from '../db/models';
import { RecentRows } from '../db/recent-rows';
import { AppError } from '../http/errors';
import { readStatusHistory } from './receipt-history';
import { pageOfReceiptIds } from './receipt-order';
import { idsMatchingSearch, idsWithTrackingNumber } from './receipt-search';
import { cachedAnswer } from './response-cache';
import { readLastSyncedAt } from './sync-state';

/** Retry-After for "the mirror has nothing yet": about one sync attempt away. */
const NEVER_SYNCED_RETRY_SECONDS = 30;

/**
 * Viewers' assigned consignees of the last second. Assignments changed by this process are forgotten at
 * once; by another process, within a second.
 */
const recentAssignments = new RecentRows<number, number[]>();
recentAssignments.forgetOnWrite(ConsigneeAssignment, ['afterSave', 'afterDestroy', 'afterBulkCreate', 'afterBulkUpdate', 'afterBulkDestroy']);

/** Which consignees' receipts a user sees: null for all (admin, admin-viewer), else the assigned ids. */
export async function visibleConsigneeIds(user: PublicUser): Promise<number[] | null> {
  if (user.role !== 'viewer') return null;
  return recentAssignments.read(user.id, async () => {
    const rows = await ConsigneeAssignment.findAll({ attributes: ['consigneeId'], where: { userId: user.id }, order: [['consigneeId', 'ASC']], raw: true });
    return rows.map((row) => row.consigneeId);
  });
}

/** Cache key part for a scope: users who see the same consignees share answers. */
export const scopeKey = (consigneeIds: number[] | null) => (consigneeIds === null ? 'all' : consigneeIds.join(','));

/** The mirror answers only once it has been filled; before that the provider is the problem. Answers the last sync's time. */
export async function requireMirror(): Promise<string> {
  const lastSyncedAt = await readLastSyncedAt();
  if (!lastSyncedAt) {
    throw new AppError('EXTERNAL_API_ERROR', m.api_receipts_not_synced(), {
      retryAfter: NEVER_SYNCED_RETRY_SECONDS,
    });
  }
  return lastSyncedAt;
}

/** The ids each text filter matches. */
export function filterIdLists(query: Pick<ReceiptQuery, 'search' | 'trackingNumber'>): Promise<Float64Array[]> {
  return Promise.all([
    ...(query.search ? [idsMatchingSearch(query.search)] : []),
    ...(query.trackingNumber ? [idsWithTrackingNumber(query.trackingNumber)] : []),
  ]);
}

const RECEIPT_COLUMNS = [
  'id', 'number', 'receivedDate', 'shipperName', 'consigneeName', 'pieces', 'totalWeightValue',
  'totalVolumeValue', 'destination', 'status', 'modeOfTransportation', 'originName',
] as const;
type ListedRow = Pick<InferAttributes<ReceiptRecord>, (typeof RECEIPT_COLUMNS)[number]>;

/** A receipt without its packages: one row of the receipts table. */
export type ReceiptFields = Omit<Receipt, 'commodities'>;

function toReceiptFields(row: ListedRow): ReceiptFields {
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
  };
}

/** The rows of these ids whose consignee is in scope (null: all). The scope is checked here again: the ids may come from before a sync that gave a receipt to another consignee. */
function readListedRows(ids: number[], consigneeIds: number[] | null): Promise<ListedRow[]> {
  const columns = RECEIPT_COLUMNS.map((column) => `"${column}"`).join(', ');
  const inScope = consigneeIds === null ? '' : 'AND "consigneeId" IN (:consigneeIds)';
  return sequelize.query<ListedRow>(`SELECT ${columns} FROM "receipts" WHERE "id" IN (:ids) ${inScope}`, {
    type: QueryTypes.SELECT,
    replacements: { ids, consigneeIds },
  });
}

/** The rows of these ids in the viewer's scope, without their packages, by id. */
export async function receiptFieldsByIds(ids: number[], consigneeIds: number[] | null): Promise<Map<number, ReceiptFields>> {
  if (ids.length === 0 || consigneeIds?.length === 0) return new Map();
  return new Map((await readListedRows(ids, consigneeIds)).map((row) => [row.id, toReceiptFields(row)]));
}

/** The receipts of these ids in the viewer's scope, with their commodities, in two plain queries (this runs for every page). */
async function receiptsByIds(ids: number[], consigneeIds: number[] | null): Promise<Map<number, Receipt>> {
  const receipts = new Map<number, Receipt>();
  if (ids.length === 0 || consigneeIds?.length === 0) return receipts;
  const [rows, packages] = await Promise.all([
    readListedRows(ids, consigneeIds),
    sequelize.query<Commodity & { receiptId: number }>(
      `SELECT "receiptId", "description", "trackingNumber", "pieces", "totalWeightValue", "totalVolumeValue"
         FROM "packages" WHERE "receiptId" IN (:ids) ORDER BY "receiptId", "position"`,
      { type: QueryTypes.SELECT, replacements: { ids } },
    ),
  ]);
  const commodities = new Map<number, Commodity[]>();
  for (const { receiptId, ...commodity } of packages) {
    const list = commodities.get(receiptId) ?? [];
    list.push(commodity);
    commodities.set(receiptId, list);
  }
  for (const row of rows) receipts.set(row.id, { ...toReceiptFields(row), commodities: commodities.get(row.id) ?? [] });
  return receipts;
}

/** Each query's part of the cache key: a query string asked for again comes as the same (frozen) object (parseQuery). */
const queryKeys = new WeakMap<ReceiptQuery, string>();

function queryKey(query: ReceiptQuery): string {
  let key = queryKeys.get(query);
  if (key === undefined) {
    key = JSON.stringify(query);
    queryKeys.set(query, key);
  }
  return key;
}

export async function listReceipts(user: PublicUser, query: ReceiptQuery): Promise<ReceiptList> {
  const startedAt = performance.now();
  const lastSyncedAt = await requireMirror();
  const consigneeIds = await visibleConsigneeIds(user);
  const key = `receipts|${scopeKey(consigneeIds)}|${queryKey(query)}`;
  const { value, cached } = await cachedAnswer(key, async () => {
    const { total: totalItems, ids: pageIds } = await pageOfReceiptIds(
      { idLists: await filterIdLists(query), consigneeIds },
      query,
      { offset: (query.page - 1) * query.limit, limit: query.limit },
    );
    const receipts = await receiptsByIds(pageIds, consigneeIds);
    const totalPages = Math.ceil(totalItems / query.limit);
    return {
      // A receipt a sync deleted or moved since its id was read is left out rather than failing the page.
      data: pageIds.flatMap((id) => receipts.get(id) ?? []),
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
  // The sync time is added per answer, not cached with it: a sync that changed nothing keeps the cache.
  return { ...value, meta: { cached, processingTime: Math.round((performance.now() - startedAt) * 10) / 10, lastSyncedAt } };
}

/** One receipt in the user's scope, with its status history. */
export async function getReceipt(user: PublicUser, id: number): Promise<ReceiptDetails> {
  await requireMirror();
  const consigneeIds = await visibleConsigneeIds(user);
  const receipt = (await receiptsByIds([id], consigneeIds)).get(id);
  // Someone else's receipt is indistinguishable from one that does not exist.
  if (!receipt) throw new AppError('NOT_FOUND', m.validation_receipt_not_found());
  return { ...receipt, history: await readStatusHistory(id) };
}
