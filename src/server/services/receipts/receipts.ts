/** Receipts from the mirror: the list with its filters, one receipt, and who may see which. */
import type { InferAttributes, Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  paginationOf,
  type Commodity,
  type Receipt,
  type ReceiptDetails,
  type ListMeta,
  type ReceiptList,
  type ReceiptQuery,
} from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import type { Database } from '../../db/database';
import type { ReceiptRecord } from '../../db/models';
import { RecentRows } from '../../db/recent-rows';
import { AppError } from '../../errors';
import { readStatusHistories } from './receipt-history';
import { trackingKey } from './mirror-rows';
import type { OrderedMatches } from './receipt-order';
import { idsMatchingSearch, idsWithTrackingNumber, type SearchDeps } from './receipt-search';
import type { CachedAnswer } from './response-cache';
import type { LastSyncTime } from './sync-state';

/** Retry-After for "the mirror has nothing yet": about one sync attempt away. */
const NEVER_SYNCED_RETRY_SECONDS = 30;

/**
 * Viewers' assigned consignees of the last second. Assignments changed by this process are forgotten at
 * once; by another process, within a second.
 */
export type AssignmentCache = RecentRows<number, number[]>;

export function createAssignmentCache(db: Database): AssignmentCache {
  const cache: AssignmentCache = new RecentRows();
  cache.forgetOnWrite(db.models.ConsigneeAssignment, [
    'afterSave',
    'afterDestroy',
    'afterBulkCreate',
    'afterBulkUpdate',
    'afterBulkDestroy',
  ]);
  return cache;
}

export interface ScopeDeps {
  db: Database;
  assignmentCache: AssignmentCache;
}

/** What reading receipts from the mirror takes. */
export interface ReceiptDeps extends ScopeDeps, SearchDeps {
  lastSync: LastSyncTime;
}

/** Which consignees' receipts a user sees: null for all (admin, admin-viewer), else the assigned ids. */
export async function visibleConsigneeIds(
  { db, assignmentCache }: ScopeDeps,
  user: PublicUser,
  transaction?: Transaction,
): Promise<number[] | null> {
  if (user.role !== 'viewer') return null;
  return assignmentCache.read(user.id, async () => {
    // Inside a transaction, on its connection: waiting for another of the pool's while holding one can starve the pool.
    const rows = await db.models.ConsigneeAssignment.findAll({
      attributes: ['consigneeId'],
      where: { userId: user.id },
      order: [['consigneeId', 'ASC']],
      raw: true,
      transaction,
    });
    return rows.map((row) => row.consigneeId);
  });
}

/** Cache key part for a scope: users who see the same consignees share answers. */
export const scopeKey = (consigneeIds: number[] | null) =>
  consigneeIds === null ? 'all' : consigneeIds.join(',');

/**
 * The mirror answers only once it has been filled; before that the provider is the problem. Answers
 * the last sync's time.
 */
export async function requireMirror({ lastSync }: { lastSync: LastSyncTime }): Promise<string> {
  const lastSyncedAt = await lastSync.read();
  if (!lastSyncedAt) {
    throw new AppError('EXTERNAL_API_ERROR', m.api_receipts_not_synced(), {
      retryAfter: NEVER_SYNCED_RETRY_SECONDS,
    });
  }
  return lastSyncedAt;
}

/** The ids each text filter matches. */
export function filterIdLists(
  deps: SearchDeps,
  query: Pick<ReceiptQuery, 'search' | 'trackingNumber'>,
): Promise<Float64Array[]> {
  return Promise.all([
    ...(query.search ? [idsMatchingSearch(deps, query.search)] : []),
    ...(query.trackingNumber ? [idsWithTrackingNumber(deps, query.trackingNumber)] : []),
  ]);
}

type ListFilter = Pick<ReceiptQuery, 'sortBy' | 'search' | 'trackingNumber'>;

/**
 * A scope and a query's filter and sort key as a cache key: every part in its place, the texts as they
 * are compared (the search in lower case, the tracking number as its key), so that equal queries share
 * one key however they were written, built or copied.
 */
const filterKey = (consigneeIds: number[] | null, query: ListFilter) =>
  JSON.stringify([
    scopeKey(consigneeIds),
    query.sortBy,
    query.search?.toLowerCase() ?? null,
    query.trackingNumber ? trackingKey(query.trackingNumber) : null,
  ]);

/**
 * The receipts a filter matches in the scope, in its sort key's order, kept for the state of the
 * mirror: the next page of the query carries on from where the last one stopped, and once all are
 * found every page, either way and however deep, is a cut by position.
 */
export function matchesInOrder(
  deps: SearchDeps,
  consigneeIds: number[] | null,
  query: ListFilter,
): Promise<OrderedMatches> {
  return deps.responseCache.part(
    'matches',
    filterKey(consigneeIds, query),
    async () =>
      deps.receiptIndex.orderedMatches(
        { idLists: await filterIdLists(deps, query), consigneeIds },
        query.sortBy,
      ),
    (matches) => matches.size,
  );
}

const RECEIPT_COLUMNS = [
  'id',
  'number',
  'receivedDate',
  'shipperName',
  'consigneeName',
  'pieces',
  'totalWeightValue',
  'totalVolumeValue',
  'destination',
  'status',
  'modeOfTransportation',
  'originName',
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

/**
 * The rows of these ids whose consignee is in scope (null: all). The scope is checked here again: the
 * ids may come from before a sync that gave a receipt to another consignee. It is checked on the rows
 * read by id, not in the query: given both, SQLite's planner (it keeps no statistics) took the index
 * on the consignee and read every receipt of the customer's consignees for each page.
 */
async function readListedRows(
  db: Database,
  ids: number[],
  consigneeIds: number[] | null,
  transaction?: Transaction,
): Promise<ListedRow[]> {
  const columns = [...RECEIPT_COLUMNS, 'consigneeId'].map((column) => `"${column}"`).join(', ');
  const rows = await db.quickRead<ListedRow & { consigneeId: number | null }>(
    `SELECT ${columns} FROM "receipts" WHERE "id" IN (${parameters(ids.length)})`,
    ids,
    transaction,
  );
  if (consigneeIds === null) return rows;
  const inScope = new Set(consigneeIds);
  return rows.filter((row) => row.consigneeId !== null && inScope.has(Number(row.consigneeId)));
}

/** `$1, $2, …`: a parameter for each of `count` values. */
const parameters = (count: number) =>
  Array.from({ length: count }, (_, index) => `$${index + 1}`).join(', ');

/** The rows of these ids in the viewer's scope, without their packages, by id. */
export async function receiptFieldsByIds(
  { db }: { db: Database },
  ids: number[],
  consigneeIds: number[] | null,
): Promise<Map<number, ReceiptFields>> {
  if (ids.length === 0 || consigneeIds?.length === 0) return new Map();
  return new Map(
    (await readListedRows(db, ids, consigneeIds)).map((row) => [row.id, toReceiptFields(row)]),
  );
}

/**
 * The receipts of these ids in the viewer's scope, with their commodities, in two plain queries (this
 * runs for every page); inside `transaction` when the caller is writing them.
 */
async function receiptsByIds(
  db: Database,
  ids: number[],
  consigneeIds: number[] | null,
  transaction?: Transaction,
): Promise<Map<number, Receipt>> {
  const receipts = new Map<number, Receipt>();
  if (ids.length === 0 || consigneeIds?.length === 0) return receipts;
  const readRows = () => readListedRows(db, ids, consigneeIds, transaction);
  const readPackages = () =>
    db.quickRead<Commodity & { receiptId: number }>(
      `SELECT "receiptId", "description", "trackingNumber", "pieces", "totalWeightValue", "totalVolumeValue"
         FROM "packages" WHERE "receiptId" IN (${parameters(ids.length)}) ORDER BY "receiptId", "position"`,
      ids,
      transaction,
    );
  // In turn inside a transaction: its one connection takes one query at a time (pg 8 queues a second
  // with a DeprecationWarning, a queue pg 9 is to remove). Outside one, each read has a connection.
  const [rows, packages] = transaction
    ? [await readRows(), await readPackages()]
    : await Promise.all([readRows(), readPackages()]);
  const commodities = new Map<number, Commodity[]>();
  for (const { receiptId, ...commodity } of packages) {
    const list = commodities.get(receiptId) ?? [];
    list.push(commodity);
    commodities.set(receiptId, list);
  }
  for (const row of rows)
    receipts.set(row.id, { ...toReceiptFields(row), commodities: commodities.get(row.id) ?? [] });
  return receipts;
}

/** A page of the list without its meta. */
export type ReceiptPage = Omit<ReceiptList, 'meta'>;

/**
 * A page of the list: its JSON text without meta (`{"data":[…],"pagination":{…}}`), as the read cache
 * keeps it, and the meta of this answer. The cache keeps the text rather than the page's objects: one
 * string is nothing for the garbage collector to trace, where a page's hundreds of objects, kept past
 * their request, were copied by scavenges and then promoted.
 */
export interface ListedPage {
  answer: CachedAnswer<string>;
  meta: ListMeta;
}

/** A page of the list, and its entry in the read cache (which keeps the forms it is sent in, respond.ts). */
export async function listReceipts(
  deps: ReceiptDeps,
  user: PublicUser,
  query: ReceiptQuery,
): Promise<ListedPage> {
  const startedAt = performance.now();
  const lastSyncedAt = await requireMirror(deps);
  const consigneeIds = await visibleConsigneeIds(deps, user);
  const key = `${filterKey(consigneeIds, query)}|${JSON.stringify([query.sortOrder, query.page, query.limit])}`;
  const { answer, cached } = await deps.responseCache.answer('list', key, async () => {
    const matches = await matchesInOrder(deps, consigneeIds, query);
    const pageIds = matches.page(query.sortOrder === 'asc', {
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    const receipts = await receiptsByIds(deps.db, pageIds, consigneeIds);
    const page: ReceiptPage = {
      // A receipt a sync deleted or moved since its id was read is left out rather than failing the page.
      data: pageIds.flatMap((id) => receipts.get(id) ?? []),
      pagination: paginationOf(query.page, query.limit, matches.total),
    };
    return JSON.stringify(page);
  });
  // The sync time is added per answer, not cached with it: a sync that changed nothing keeps the cache.
  const meta = {
    cached,
    processingTime: Math.round((performance.now() - startedAt) * 10) / 10,
    lastSyncedAt,
  };
  return { answer, meta };
}

/** The page as objects, for a screen that renders it (the receipts screen's first page). */
export function receiptListOf({ answer, meta }: ListedPage): ReceiptList {
  return { ...(JSON.parse(answer.value) as ReceiptPage), meta };
}

/**
 * Receipts as `GET /api/receipts/{id}` shows them (with their status histories), of these ids in the
 * scope (null: all); inside `transaction` when the caller is writing them (webhook events).
 */
export async function receiptDetailsByIds(
  { db }: { db: Database },
  ids: number[],
  consigneeIds: number[] | null,
  transaction?: Transaction,
): Promise<Map<number, ReceiptDetails>> {
  const receipts = await receiptsByIds(db, ids, consigneeIds, transaction);
  const histories = await readStatusHistories({ db }, [...receipts.keys()], transaction);
  return new Map(
    [...receipts].map(([id, receipt]) => [id, { ...receipt, history: histories.get(id) ?? [] }]),
  );
}

/** One receipt in the user's scope, with its status history. */
export async function getReceipt(
  deps: ScopeDeps & { lastSync: LastSyncTime },
  user: PublicUser,
  id: number,
): Promise<ReceiptDetails> {
  await requireMirror(deps);
  const consigneeIds = await visibleConsigneeIds(deps, user);
  const receipt = (await receiptDetailsByIds(deps, [id], consigneeIds)).get(id);
  // Someone else's receipt is indistinguishable from one that does not exist.
  if (!receipt) throw new AppError('NOT_FOUND', m.validation_receipt_not_found());
  return receipt;
}
