/**
 * The list's orders, kept in memory for the current mirror: every receipt's slot (its place among the
 * ids) in each sort order, read once from that key's index, each slot's rank in it, and each
 * receipt's consignee, and which receipts' search texts hold each character and pair of characters.
 * The database work of a new search is then at most reading the ids its index matches; ordering them
 * happens here, in typed arrays, once per filter and sort key (the read cache keeps the outcome,
 * receipts.ts), and every page of it is then cut out by its position, however deep.
 *
 * Searches of one or two characters are answered here (ShortTextIndex): the database's trigram
 * indexes cannot, and such a text (a digit, a letter) is in thousands of receipts or all of them, so
 * the database would read each of those rows for its id.
 *
 * They belong to one state of the mirror: after a sync that changed it, the next state's orders are
 * read whole (`ReceiptIndex.read`) before they replace these (`ReceiptIndex.use`), so that no visitor
 * waits for them.
 */
import { LRUCache } from 'lru-cache';
import { QueryTypes } from 'sequelize';
import { DEFAULT_RECEIPT_SORT, LIST_SORT_KEYS } from '~/shared/constants';
import type { ReceiptSortKey } from '~/shared/receipts';
import type { Database } from '../../db/database';
import { numberListOf, orderedRows, parseNumberList, textListOf } from '../../db/number-lists';
import { ShortTextIndex } from '../../short-text-index';
import { sortColumn } from './mirror-rows';

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
const ascendingOrderBy = (sortBy: ReceiptSortKey) =>
  `"${ORDER_COLUMN[sortBy]}" ASC${sortBy === 'receivedDate' ? ' NULLS FIRST' : ''}, "id" ASC`;

export interface MirrorOrders {
  /** Every receipt id, ascending; a receipt's position here is its slot. */
  ids: Float64Array;
  /** The slot of an id, or -1 when the mirror had no such receipt. */
  slotOf: (id: number) => number;
  /** The consignee id of each slot (0 for none). */
  consignees: Float64Array;
  /** Which slots' search texts (number, shipper and consignee, lower case) hold a character or a pair. */
  shortTexts: ShortTextIndex;
  /** Each sort key's order, read when first asked for. */
  orders: Map<ReceiptSortKey, Promise<Order>>;
  /** The slots of recent customers' scopes, by their consignee ids. */
  scopes: LRUCache<string, Scope>;
}

/** The receipts one set of consignees holds, found once per state of the mirror rather than on every search. */
interface Scope {
  /** 1 at each slot in scope. */
  marks: Uint8Array;
  /** The slots in scope, ascending. */
  slots: Int32Array;
}

/** Scopes kept per state of the mirror: a tenth of a megabyte each at 100,000 receipts. */
const MAX_SCOPES = 64;

interface Order {
  /** The slots in ascending order. */
  slots: Int32Array;
  /** Each slot's position in `slots` (-1 for a slot that joined after the order was read). */
  rank: Int32Array;
}

/**
 * Search texts are read this many receipts at a time: parsing all 100,000 as one JSON text blocked the
 * server for 13 to 72 ms, during which no request was answered; parsing and indexing a twentieth of
 * them takes a few milliseconds between two requests.
 */
const SEARCH_TEXTS_PER_READ = 5_000;

async function readMirror(db: Database, textsPerRead: number): Promise<MirrorOrders> {
  const { isSqlite } = db;
  const [row] = await db.sequelize.query<{ ids: string | null; consignees: string | null }>(
    `SELECT ${numberListOf(isSqlite, '"id"', '"id"')} AS "ids",
            ${numberListOf(isSqlite, 'COALESCE("consigneeId", 0)', '"id"')} AS "consignees"
       FROM ${orderedRows(isSqlite, '"receipts"', '"id"')}`,
    { type: QueryTypes.SELECT, ...db.mirrorRead() },
  );
  const ids = parseNumberList(row?.ids ?? null);
  const slotOf = slotFinder(ids);
  return {
    ids,
    slotOf,
    consignees: parseNumberList(row?.consignees ?? null),
    shortTexts: await indexSearchTexts(db, ids, slotOf, textsPerRead),
    orders: new Map(),
    scopes: new LRUCache({ max: MAX_SCOPES }),
  };
}

/**
 * The slots' search texts indexed, read by ranges of ids; a receipt a sync added or removed between
 * the reads has none.
 */
async function indexSearchTexts(
  db: Database,
  ids: Float64Array,
  slotOf: (id: number) => number,
  textsPerRead: number,
): Promise<ShortTextIndex> {
  const { isSqlite } = db;
  const index = new ShortTextIndex(ids.length);
  const receiptsInRange =
    '(SELECT "id", "searchText" FROM "receipts" WHERE "id" BETWEEN :first AND :last)';
  for (let start = 0; start < ids.length; start += textsPerRead) {
    const range = {
      first: ids[start]!,
      last: ids[Math.min(start + textsPerRead, ids.length) - 1]!,
    };
    const [row] = await db.sequelize.query<{ ids: string | null; texts: string | null }>(
      `SELECT ${numberListOf(isSqlite, '"id"', '"id"')} AS "ids",
              ${textListOf(isSqlite, '"searchText"', '"id"')} AS "texts"
         FROM ${orderedRows(isSqlite, receiptsInRange, '"id"')}`,
      { type: QueryTypes.SELECT, replacements: range, ...db.mirrorRead() },
    );
    const rangeIds = parseNumberList(row?.ids ?? null);
    const texts: string[] = row?.texts ? JSON.parse(row.texts) : [];
    for (let position = 0; position < rangeIds.length; position += 1) {
      const slot = slotOf(rangeIds[position]!);
      if (slot >= 0) index.add(slot, texts[position]!);
    }
  }
  return index;
}

/**
 * Finds slots by id: through a table when the ids are dense enough (providers number their records),
 * else by binary search.
 */
function slotFinder(ids: Float64Array): (id: number) => number {
  const first = ids[0] ?? 0;
  const span = ids.length ? ids[ids.length - 1]! - first + 1 : 0;
  if (span <= 4 * ids.length + 1_024) {
    const table = new Int32Array(span).fill(-1);
    for (let slot = 0; slot < ids.length; slot += 1) table[ids[slot]! - first] = slot;
    return (id) => (id >= first && id - first < span ? table[id - first]! : -1);
  }
  return (id) => {
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (ids[middle] === id) return middle;
      if (ids[middle]! < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  };
}

/**
 * Each value mapped, leaving out those that map to -1, in order. A plain loop: TypedArray.from with a
 * mapping function and filter take 30 to 50 ms over 100,000 values, a pause no request can interrupt.
 */
function mapKnown(values: ArrayLike<number>, map: (value: number) => number): Int32Array {
  const mapped = new Int32Array(values.length);
  let count = 0;
  for (let position = 0; position < values.length; position += 1) {
    const value = map(values[position]!);
    if (value >= 0) mapped[count++] = value;
  }
  return mapped.subarray(0, count);
}

/** The slots both ascending lists hold. */
function bothOf(first: Int32Array, second: Int32Array): Int32Array {
  const both = new Int32Array(Math.min(first.length, second.length));
  let count = 0;
  for (let i = 0, j = 0; i < first.length && j < second.length;) {
    if (first[i]! < second[j]!) i += 1;
    else if (first[i]! > second[j]!) j += 1;
    else {
      both[count++] = first[i]!;
      i += 1;
      j += 1;
    }
  }
  return both.subarray(0, count);
}

/** The receipts of these consignees (ids ascending) in this state of the mirror, found on first use. */
function scopeOf(mirror: MirrorOrders, consigneeIds: number[]): Scope {
  const key = consigneeIds.join(',');
  let scope = mirror.scopes.get(key);
  if (!scope) {
    const inScope = new Set(consigneeIds);
    const { consignees } = mirror;
    const marks = new Uint8Array(consignees.length);
    let count = 0;
    for (let slot = 0; slot < consignees.length; slot += 1) {
      if (inScope.has(consignees[slot]!)) {
        marks[slot] = 1;
        count += 1;
      }
    }
    const slots = new Int32Array(count);
    for (let slot = 0, next = 0; next < count; slot += 1)
      if (marks[slot] === 1) slots[next++] = slot;
    scope = { marks, slots };
    mirror.scopes.set(key, scope);
  }
  return scope;
}

/** The slots in every id list (each ascending) whose consignee is in scope (null: all), ascending. */
function matchingSlots(
  mirror: MirrorOrders,
  idLists: Float64Array[],
  scope: Scope | null,
): Int32Array {
  let slots = mapKnown(idLists[0]!, mirror.slotOf);
  for (const list of idLists.slice(1)) slots = bothOf(slots, mapKnown(list, mirror.slotOf));
  if (!scope) return slots;
  const { marks } = scope;
  let count = 0;
  for (const slot of slots) if (marks[slot] === 1) slots[count++] = slot;
  return slots.subarray(0, count);
}

async function readOrder(
  db: Database,
  mirror: MirrorOrders,
  sortBy: ReceiptSortKey,
): Promise<Order> {
  const order = ascendingOrderBy(sortBy);
  const { isSqlite } = db;
  const [row] = await db.sequelize.query<{ ids: string | null }>(
    `SELECT ${numberListOf(isSqlite, '"id"', order)} AS "ids" FROM ${orderedRows(isSqlite, '"receipts"', order)}`,
    {
      type: QueryTypes.SELECT,
      ...db.mirrorRead(),
    },
  );
  const ordered = parseNumberList(row?.ids ?? null);
  // A receipt a sync added between the two reads has no slot yet; it joins with the next state's orders.
  const slots = mapKnown(ordered, mirror.slotOf);
  const rank = new Int32Array(mirror.ids.length).fill(-1);
  for (let position = 0; position < slots.length; position += 1) rank[slots[position]!] = position;
  return { slots, rank };
}

function orderOf(db: Database, mirror: MirrorOrders, sortBy: ReceiptSortKey): Promise<Order> {
  let order = mirror.orders.get(sortBy);
  if (!order) {
    order = readOrder(db, mirror, sortBy);
    mirror.orders.set(sortBy, order);
    order.catch(() => mirror.orders.delete(sortBy));
  }
  return order;
}

/** The matches (ascending slots) in the order: ranked in it and sorted. */
function sortedByRank(matches: Int32Array, order: Order): Int32Array {
  const ordered = mapKnown(matches, (slot) => order.rank[slot]!).sort();
  for (let position = 0; position < ordered.length; position += 1)
    ordered[position] = order.slots[ordered[position]!]!;
  return ordered;
}

/**
 * The matches found by walking the order from one end, and where the walk stopped: the next page's
 * walk starts there.
 */
interface Walk {
  found: Int32Array;
  count: number;
  steps: number;
}

/**
 * A filter's matches in one sort order, found as far as the pages asked so far needed them: by walking
 * the order from its start (ascending pages) or its end (descending), which stops as soon as the page
 * is full and carries on from there for a deeper page; or, when that costs less than the steps still to
 * walk (few matches, a deep page), by ranking them all and sorting. Once all are found, any page either
 * way is cut out by its position. The count of matches is exact from the start.
 */
export class OrderedMatches {
  /** Every match in the order, once found (the order itself when nothing is filtered). */
  private ordered: Int32Array | null;
  private readonly walks: { ascending: Walk | null; descending: Walk | null } = {
    ascending: null,
    descending: null,
  };

  /**
   * `matches`: ascending slots, null for every receipt; `scopeMarks`: 1 at each of them, when a scope's
   * (kept with the scope). Other marks are made for each walk rather than kept: a tenth of a megabyte
   * at 100,000 receipts, for every search in the read cache.
   */
  constructor(
    private readonly ids: Float64Array,
    private readonly order: Order,
    private readonly matches: Int32Array | null,
    private readonly scopeMarks: Uint8Array | null,
  ) {
    this.ordered = matches ? null : order.slots;
  }

  get total(): number {
    return this.matches ? this.matches.length : this.order.slots.length;
  }

  /** The slots it may come to keep (found from both ends, or all in order), for the read cache's size. */
  get size(): number {
    return this.matches ? 2 * this.matches.length : 1;
  }

  /**
   * The ids of one page, from the order's start or (descending) its end; a limit of Infinity takes
   * every match from the offset on.
   */
  page(ascending: boolean, window: { offset: number; limit: number }): number[] {
    if (window.offset >= this.total) return [];
    const found = this.ordered
      ? null
      : this.walkTo(ascending, Math.min(this.total, window.offset + window.limit));
    const slots = found ? found.found : this.ordered!;
    const available = found ? found.count : slots.length;
    const count = Math.max(0, Math.min(window.limit, available - window.offset));
    const page = new Array<number>(count);
    for (let index = 0; index < count; index += 1) {
      const position = window.offset + index;
      page[index] = this.ids[slots[found || ascending ? position : available - 1 - position]!]!;
    }
    return page;
  }

  /**
   * The walk from that end with at least `needed` matches (or to the order's other end); null when
   * all were sorted instead.
   */
  private walkTo(ascending: boolean, needed: number): Walk | null {
    const { slots } = this.order;
    const matches = this.matches!;
    let walk = ascending ? this.walks.ascending : this.walks.descending;
    const stepsLeft = Math.min(
      slots.length - (walk?.steps ?? 0),
      ((needed - (walk?.count ?? 0)) * slots.length) / matches.length,
    );
    if (stepsLeft > matches.length * Math.log2(matches.length + 1)) {
      this.ordered = sortedByRank(matches, this.order);
      this.walks.ascending = this.walks.descending = null;
      return null;
    }
    let marks = this.scopeMarks;
    if (!marks) {
      marks = new Uint8Array(this.order.rank.length);
      for (const slot of matches) marks[slot] = 1;
    }
    walk ??= { found: new Int32Array(0), count: 0, steps: 0 };
    if (walk.found.length < needed) {
      const grown = new Int32Array(
        Math.min(matches.length, Math.max(needed, 2 * walk.found.length)),
      );
      grown.set(walk.found.subarray(0, walk.count));
      walk.found = grown;
    }
    const { found } = walk;
    let { count, steps } = walk;
    for (; steps < slots.length && count < needed; steps += 1) {
      const slot = slots[ascending ? steps : slots.length - 1 - steps]!;
      if (marks[slot] === 1) found[count++] = slot;
    }
    walk.count = count;
    walk.steps = steps;
    if (steps === slots.length) {
      // Walked whole: every page either way is a cut from now on.
      this.ordered = ascending ? found.subarray(0, count) : found.slice(0, count).reverse();
      this.walks.ascending = this.walks.descending = null;
    } else if (ascending) this.walks.ascending = walk;
    else this.walks.descending = walk;
    return walk;
  }
}

/**
 * The list's orders and short-text index of the mirror state this process answers from: read on first
 * use, replaced after each sync that changes the mirror (mirror-version.ts).
 */
export class ReceiptIndex {
  private current: Promise<MirrorOrders> | undefined;

  /** `textsPerRead`: search texts read at a time; fewer only for a test of several reads on little data. */
  constructor(
    private readonly db: Database,
    private readonly textsPerRead = SEARCH_TEXTS_PER_READ,
  ) {}

  /** Reads the mirror's ids and every order as the database holds them now, one after another. */
  async read(): Promise<MirrorOrders> {
    const mirror = await readMirror(this.db, this.textsPerRead);
    for (const sortBy of [
      DEFAULT_RECEIPT_SORT.sortBy,
      ...LIST_SORT_KEYS.filter((key) => key !== DEFAULT_RECEIPT_SORT.sortBy),
    ]) {
      await orderOf(this.db, mirror, sortBy);
    }
    return mirror;
  }

  /** Answers from these orders from now on (null: read them again on first use). */
  use(mirror: MirrorOrders | null): void {
    this.current = mirror ? Promise.resolve(mirror) : undefined;
  }

  /** Ids of the receipts whose search text contains `text` (lower case, one or two code units), ascending. */
  async idsContaining(text: string): Promise<Float64Array> {
    const { ids, shortTexts } = await this.mirrorOrders();
    const slots = shortTexts.slotsContaining(text);
    const found = new Float64Array(slots.length);
    for (let position = 0; position < slots.length; position += 1)
      found[position] = ids[slots[position]!]!;
    return found;
  }

  /**
   * The receipts in every id list (each ascending) and of the consignees in scope (null: all), in
   * the order of `sortBy`.
   */
  async orderedMatches(
    filter: { idLists: Float64Array[]; consigneeIds: number[] | null },
    sortBy: ReceiptSortKey,
  ): Promise<OrderedMatches> {
    const mirror = await this.mirrorOrders();
    const order = await orderOf(this.db, mirror, sortBy);
    const scope = filter.consigneeIds && scopeOf(mirror, filter.consigneeIds);
    if (filter.idLists.length > 0)
      return new OrderedMatches(
        mirror.ids,
        order,
        matchingSlots(mirror, filter.idLists, scope),
        null,
      );
    return scope
      ? new OrderedMatches(mirror.ids, order, scope.slots, scope.marks)
      : new OrderedMatches(mirror.ids, order, null, null);
  }

  private mirrorOrders(): Promise<MirrorOrders> {
    if (!this.current) {
      const reading = readMirror(this.db, this.textsPerRead);
      this.current = reading;
      // A failed read is not kept: the next request tries again.
      reading.catch(() => {
        if (this.current === reading) this.current = undefined;
      });
    }
    return this.current;
  }
}
