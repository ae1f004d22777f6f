/** Receipts from the mirror: the list with its filters, one receipt, and who may see which. */
import { Op, QueryTypes, type InferAttributes, type WhereOptions } from 'sequelize';
import type { Commodity, Receipt, ReceiptList, ReceiptQuery } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import { heavyRead, sequelize } from '../db';
import { ConsigneeAssignment, ReceiptRecord } from '../db/models';
import { AppError } from '../http/errors';
import { trackingKey } from './mirror-rows';
import { cachedAnswer, cachedIdList } from './response-cache';
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

/** Once a sync has succeeded the mirror stays filled, so the database is asked only until then. */
let mirrorFilled = false;

/** The mirror answers only once it has been filled; before that the provider is the problem. */
export async function requireMirror(): Promise<void> {
  if (mirrorFilled) return;
  mirrorFilled = Boolean((await readSyncState()).lastSuccessAt);
  if (!mirrorFilled) {
    throw new AppError('EXTERNAL_API_ERROR', 'Receipts are not available yet: the logistics provider has not answered. Please try again shortly.', {
      retryAfter: NEVER_SYNCED_RETRY_SECONDS,
    });
  }
}

const isSqlite = sequelize.getDialect() === 'sqlite';
const containsFunction = isSqlite ? 'instr' : 'strpos';
/** The FTS5 trigram index answers "contains" for three characters or more (SQLite only). */
const TRIGRAM = 3;
const usesTrigramIndex = (text: string) => isSqlite && [...text].length >= TRIGRAM;
/** A text as one FTS5 phrase: matched as a plain substring, whatever quotes or operators it holds. */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

interface FilterSql {
  where: string;
  replacements: Record<string, unknown>;
}

/** The list's filters as SQL. */
function filterSql(consigneeIds: number[] | null, query: ReceiptQuery): FilterSql {
  const conditions: string[] = [];
  const replacements: Record<string, unknown> = {};
  if (consigneeIds !== null) {
    conditions.push(consigneeIds.length ? '"consigneeId" IN (:consigneeIds)' : '1 = 0');
    replacements.consigneeIds = consigneeIds;
  }
  if (query.search) {
    const search = query.search.toLowerCase();
    conditions.push(
      usesTrigramIndex(search)
        ? '"id" IN (SELECT "rowid" FROM "receipts_search" WHERE "receipts_search" MATCH :search)'
        : `${containsFunction}("searchText", :search) > 0`,
    );
    replacements.search = usesTrigramIndex(search) ? ftsPhrase(search) : search;
  }
  if (query.trackingNumber) {
    // Tracking numbers are at least 8 characters, so the trigram index always applies.
    const key = trackingKey(query.trackingNumber);
    conditions.push(
      isSqlite
        ? '"id" IN (SELECT "receiptId" FROM "packages" WHERE "id" IN (SELECT "rowid" FROM "packages_tracking" WHERE "packages_tracking" MATCH :tracking))'
        : `"id" IN (SELECT "receiptId" FROM "packages" WHERE ${containsFunction}("trackingKey", :tracking) > 0)`,
    );
    replacements.tracking = isSqlite ? ftsPhrase(key) : key;
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', replacements };
}

const isFiltered = (consigneeIds: number[] | null, query: ReceiptQuery) => consigneeIds !== null || Boolean(query.search || query.trackingNumber);

/** One page of the unfiltered list: the sort key's index leads straight to it. */
async function unfilteredPage(query: ReceiptQuery): Promise<{ total: number; ids: number[] }> {
  const { value: total } = await cachedAnswer('count|all', async () => ReceiptRecord.count());
  const direction = query.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const rows = await sequelize.query<{ id: number }>(
    `SELECT "id" FROM "receipts" ORDER BY "${query.sortBy}" ${direction}, "id" ${direction} LIMIT :limit OFFSET :offset`,
    { type: QueryTypes.SELECT, replacements: { limit: query.limit, offset: (query.page - 1) * query.limit } },
  );
  return { total, ids: rows.map((row) => row.id) };
}

/** Every matching id in ascending list order, read from the sort key's index (see db/migrations/0002). */
async function readSortedIds(consigneeIds: number[] | null, query: ReceiptQuery): Promise<Int32Array> {
  const { where, replacements } = filterSql(consigneeIds, query);
  const ordered = `SELECT "id" FROM "receipts" ${isSqlite ? `INDEXED BY "receipts_by_${query.sortBy}"` : ''} ${where}
    ORDER BY "${query.sortBy}" ASC, "id" ASC`;
  if (!isSqlite) {
    const rows = await sequelize.query<{ id: number }>(ordered, { type: QueryTypes.SELECT, replacements });
    return Int32Array.from(rows, (row) => row.id);
  }
  // One text of ids instead of a row object per receipt: at 100,000 matches that is most of the cost.
  const [row] = await sequelize.query<{ ids: string | null }>(`SELECT group_concat("id") AS "ids" FROM (${ordered})`, {
    type: QueryTypes.SELECT,
    replacements,
    ...heavyRead(),
  });
  return row?.ids ? Int32Array.from(row.ids.split(','), Number) : new Int32Array(0);
}

/**
 * One page of a filtered list. Every matching id is read once per filter and sort key (until the
 * mirror changes) by walking the key's index, which carries the consignee, and checking each entry
 * against the filter; a page is then a slice, from the end for descending order (ties go by id, so
 * descending is exactly ascending reversed). Walking to a page with LIMIT/OFFSET instead is slow
 * whenever the matches cluster at the index's far end, as one shipper's do when sorting by shipper.
 */
async function filteredPage(consigneeIds: number[] | null, query: ReceiptQuery): Promise<{ total: number; ids: number[] }> {
  const key = `${scopeKey(consigneeIds)}|${query.search ?? ''}|${query.trackingNumber ?? ''}|${query.sortBy}`;
  const { value: ascending } = await cachedIdList(key, () => readSortedIds(consigneeIds, query));
  const total = ascending.length;
  const offset = Math.min((query.page - 1) * query.limit, total);
  const end = Math.min(offset + query.limit, total);
  const ids =
    query.sortOrder === 'asc' ? Array.from(ascending.subarray(offset, end)) : Array.from(ascending.subarray(total - end, total - offset)).reverse();
  return { total, ids };
}

type ListedRow = Omit<InferAttributes<ReceiptRecord>, 'consigneeId' | 'searchText' | 'providerUpdatedAt'>;
const RECEIPT_COLUMNS = [
  'id', 'number', 'receivedDate', 'shipperName', 'consigneeName', 'pieces', 'totalWeightValue',
  'totalVolumeValue', 'destination', 'status', 'modeOfTransportation', 'originName',
] as const;

function toReceipt(row: ListedRow, commodities: Commodity[]): Receipt {
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

/** The receipts of these ids with their commodities, in two plain queries (this runs for every page). */
async function receiptsByIds(ids: number[]): Promise<Map<number, Receipt>> {
  const receipts = new Map<number, Receipt>();
  if (ids.length === 0) return receipts;
  const columns = RECEIPT_COLUMNS.map((column) => `"${column}"`).join(', ');
  const [rows, packages] = await Promise.all([
    sequelize.query<ListedRow>(`SELECT ${columns} FROM "receipts" WHERE "id" IN (:ids)`, { type: QueryTypes.SELECT, replacements: { ids } }),
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
  for (const row of rows) receipts.set(row.id, toReceipt(row, commodities.get(row.id) ?? []));
  return receipts;
}

export async function listReceipts(user: PublicUser, query: ReceiptQuery): Promise<ReceiptList> {
  const startedAt = performance.now();
  await requireMirror();
  const consigneeIds = await visibleConsigneeIds(user);
  const key = `receipts|${scopeKey(consigneeIds)}|${JSON.stringify(query)}`;
  const { value, cached } = await cachedAnswer(key, async () => {
    const { total: totalItems, ids: pageIds } = isFiltered(consigneeIds, query) ? await filteredPage(consigneeIds, query) : await unfilteredPage(query);
    const receipts = await receiptsByIds(pageIds);
    const totalPages = Math.ceil(totalItems / query.limit);
    return {
      // A receipt a sync deleted since its id was read is left out rather than failing the page.
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
  return { ...value, meta: { cached, processingTime: Math.round((performance.now() - startedAt) * 10) / 10 } };
}

export async function getReceipt(user: PublicUser, id: number): Promise<Receipt> {
  await requireMirror();
  const consigneeIds = await visibleConsigneeIds(user);
  const visible = await ReceiptRecord.count({ where: { [Op.and]: [{ id }, scopeWhere(consigneeIds)] } });
  const receipt = visible ? (await receiptsByIds([id])).get(id) : undefined;
  // Someone else's receipt is indistinguishable from one that does not exist.
  if (!receipt) throw new AppError('NOT_FOUND', 'Receipt not found');
  return receipt;
}
