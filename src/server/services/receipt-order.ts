/**
 * The list's orders, kept in memory for the current mirror: every receipt id in each sort order (read
 * once from that key's index), and each receipt's consignee. A page of a filtered list is then a walk
 * of the order that keeps the matches, stopping at the page's end: a filter that matches most receipts
 * stops early, one that matches few costs a pass over a typed array (about 0.1 ms per 100,000
 * receipts). The database work of a new search is only reading the ids its index matches.
 *
 * Everything here is dropped with the response cache whenever a sync changed the mirror, and ages out
 * as the cache does, so a sync by another process is seen in time too.
 */
import { QueryTypes } from 'sequelize';
import { DEFAULT_RECEIPT_SORT, LIST_SORT_KEYS } from '~/shared/constants';
import type { ReceiptSortKey, SortOrder } from '~/shared/receipts';
import { heavyRead, sequelize } from '../db';
import { numberListOf, orderedRows, parseNumberList } from '../db/number-lists';
import { sortColumn } from './mirror-rows';
import { CACHE_MAX_AGE_MS, cacheGeneration } from './response-cache';

/** The column each sort key orders by: the date itself, or a text's stored sort key. */
const ORDER_COLUMN: Record<ReceiptSortKey, string> = {
  receivedDate: 'receivedDate',
  number: sortColumn('number'),
  shipperName: sortColumn('shipperName'),
  consigneeName: sortColumn('consigneeName'),
  status: sortColumn('status'),
  destination: sortColumn('destination'),
  modeOfTransportation: sortColumn('modeOfTransportation'),
  origin: sortColumn('originName'),
};

/** The ORDER BY of a sort key, ascending; identical on both databases (receipts without a date first). */
const ascendingOrderBy = (sortBy: ReceiptSortKey) => `"${ORDER_COLUMN[sortBy]}" ASC${sortBy === 'receivedDate' ? ' NULLS FIRST' : ''}, "id" ASC`;

interface MirrorOrders {
  generation: number;
  /** Every receipt id, ascending; a receipt's position here is its slot. */
  ids: Float64Array;
  /** The consignee id of each slot (0 for none). */
  consignees: Float64Array;
  /** Slots in each sort key's ascending order, read when first asked for. */
  orders: Map<ReceiptSortKey, Promise<Int32Array>>;
}

let current: Promise<MirrorOrders> | undefined;
let currentGeneration = -1;

async function readMirror(generation: number): Promise<MirrorOrders> {
  const [row] = await sequelize.query<{ ids: string | null; consignees: string | null }>(
    `SELECT ${numberListOf('"id"', '"id"')} AS "ids", ${numberListOf('COALESCE("consigneeId", 0)', '"id"')} AS "consignees"
       FROM ${orderedRows('"receipts"', '"id"')}`,
    { type: QueryTypes.SELECT, ...heavyRead() },
  );
  return { generation, ids: parseNumberList(row?.ids ?? null), consignees: parseNumberList(row?.consignees ?? null), orders: new Map() };
}

/** Ages out like the response cache, so that another process's sync is seen in time too. */
let currentReadAt = 0;

function mirrorOrders(): Promise<MirrorOrders> {
  const generation = cacheGeneration();
  if (!current || currentGeneration !== generation || Date.now() - currentReadAt > CACHE_MAX_AGE_MS) {
    currentReadAt = Date.now();
    currentGeneration = generation;
    current = readMirror(generation);
    // A failed read is not kept: the next request tries again.
    current.catch(() => {
      if (currentGeneration === generation) current = undefined;
    });
  }
  return current;
}

/** The slot of an id: its position in the ascending ids, or -1 when the mirror had no such receipt. */
function slotOf(ids: Float64Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ids[middle]!;
    if (value === id) return middle;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

async function readOrder(mirror: MirrorOrders, sortBy: ReceiptSortKey): Promise<Int32Array> {
  const order = ascendingOrderBy(sortBy);
  const [row] = await sequelize.query<{ ids: string | null }>(`SELECT ${numberListOf('"id"', order)} AS "ids" FROM ${orderedRows('"receipts"', order)}`, {
    type: QueryTypes.SELECT,
    ...heavyRead(),
  });
  const ordered = parseNumberList(row?.ids ?? null);
  // A receipt a sync added between the two reads has no slot yet; it joins with the next generation.
  return Int32Array.from(ordered, (id: number) => slotOf(mirror.ids, id)).filter((slot) => slot >= 0);
}

function orderOf(mirror: MirrorOrders, sortBy: ReceiptSortKey): Promise<Int32Array> {
  let order = mirror.orders.get(sortBy);
  if (!order) {
    order = readOrder(mirror, sortBy);
    mirror.orders.set(sortBy, order);
    order.catch(() => mirror.orders.delete(sortBy));
  }
  return order;
}

/**
 * Marks the slots that every id list holds and whose consignee is in scope; answers how many. Each
 * list is ascending, as is `ids`, so marking one is a merge of the two; a slot's mark counts the lists
 * that hold it.
 */
function markMatches(mirror: MirrorOrders, idLists: Float64Array[], consigneeIds: number[] | null): { marks: Uint8Array; total: number } {
  const { ids, consignees } = mirror;
  const marks = new Uint8Array(ids.length);
  for (const [level, list] of idLists.entries()) {
    let slot = 0;
    for (const id of list) {
      while (slot < ids.length && ids[slot]! < id) slot += 1;
      if (slot === ids.length) break;
      if (ids[slot] === id && marks[slot] === level) marks[slot] = level + 1;
    }
  }
  const scope = consigneeIds && new Set(consigneeIds);
  let total = 0;
  for (let slot = 0; slot < ids.length; slot += 1) {
    const matched = marks[slot] === idLists.length && (!scope || scope.has(consignees[slot]!));
    marks[slot] = matched ? 1 : 0;
    if (matched) total += 1;
  }
  return { marks, total };
}

/** Reads the new mirror's ids and orders now, one after another, so that no visitor waits for them after a sync. */
export async function prepareReceiptOrders(): Promise<void> {
  const mirror = await mirrorOrders();
  for (const sortBy of [DEFAULT_RECEIPT_SORT.sortBy, ...LIST_SORT_KEYS.filter((key) => key !== DEFAULT_RECEIPT_SORT.sortBy)]) {
    if (mirror.generation !== cacheGeneration()) return;
    await orderOf(mirror, sortBy);
  }
}

interface IdPage {
  total: number;
  ids: number[];
}

/**
 * One page of receipt ids in the list's order: those in every id list (each ascending) and of the
 * consignees in scope (null: all).
 */
export async function pageOfReceiptIds(
  filter: { idLists: Float64Array[]; consigneeIds: number[] | null },
  sort: { sortBy: ReceiptSortKey; sortOrder: SortOrder },
  window: { offset: number; limit: number },
): Promise<IdPage> {
  const mirror = await mirrorOrders();
  const order = await orderOf(mirror, sort.sortBy);
  const ascending = sort.sortOrder === 'asc';
  const unfiltered = filter.idLists.length === 0 && filter.consigneeIds === null;
  const { marks, total } = unfiltered ? { marks: null, total: order.length } : markMatches(mirror, filter.idLists, filter.consigneeIds);
  const ids: number[] = [];
  if (window.offset >= total) return { total, ids };
  let skip = window.offset;
  for (let step = 0; step < order.length && ids.length < window.limit; step += 1) {
    const slot = order[ascending ? step : order.length - 1 - step]!;
    if (marks && marks[slot] !== 1) continue;
    if (skip > 0) skip -= 1;
    else ids.push(mirror.ids[slot]!);
  }
  return { total, ids };
}
