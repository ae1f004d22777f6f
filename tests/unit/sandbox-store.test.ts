import { describe, expect, it } from 'vitest';
import type { ProviderReceipt } from '~/server/provider/contract';
import {
  decodeCursor,
  encodeCursor,
  SandboxStore,
  type Cursor,
} from '~/server/provider/sandbox/store';

const NOW = new Date(2026, 10, 18, 14, 30).getTime();
const MINUTE = 60_000;

/** Pages from `since` to the end; the receipts and the last cursor. */
function pageThrough(store: SandboxStore, since: Cursor | null, limit: number) {
  const receipts: ProviderReceipt[] = [];
  let cursor = since;
  let nextCursor: string | null = since && encodeCursor(since);
  for (let pages = 0; pages < 10_000; pages++) {
    const page = store.listChanges(cursor, limit);
    expect(page.receipts.length).toBeLessThanOrEqual(limit);
    receipts.push(...page.receipts);
    nextCursor = page.nextCursor;
    if (!page.hasMore) break;
    cursor = decodeCursor(page.nextCursor!);
  }
  return { receipts, cursor: nextCursor === null ? null : decodeCursor(nextCursor) };
}

const order = (receipt: ProviderReceipt) => [Date.parse(receipt.updatedAt), receipt.id] as const;

describe('cursor', () => {
  it('when a cursor is encoded and decoded, then it comes back unchanged', () => {
    const cursor = { updatedAt: NOW, id: 104233 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each([
    '',
    'abc',
    Buffer.from('1:x').toString('base64url'),
    Buffer.from('1.5:2').toString('base64url'),
    Buffer.from('-1:2').toString('base64url'),
  ])('when the cursor is %j, then it is refused', (text) => {
    expect(decodeCursor(text)).toBeNull();
  });
});

describe('paging', () => {
  const store = new SandboxStore(1, 300, NOW);

  it.each([1, 37, 300, 1000])(
    'when paging with limit %i from no cursor, then every receipt comes exactly once, oldest change first',
    (limit) => {
      const { receipts } = pageThrough(store, null, limit);
      expect(receipts).toHaveLength(300);
      expect(new Set(receipts.map((receipt) => receipt.id)).size).toBe(300);
      for (let i = 1; i < receipts.length; i++) {
        const [before, after] = [order(receipts[i - 1]!), order(receipts[i]!)];
        expect(before[0] < after[0] || (before[0] === after[0] && before[1] < after[1])).toBe(true);
      }
    },
  );

  it('when the last page is reached, then hasMore is false and a page after its cursor is empty with the same cursor', () => {
    const { cursor } = pageThrough(store, null, 100);
    const after = store.listChanges(cursor, 100);
    expect(after).toEqual({ receipts: [], nextCursor: encodeCursor(cursor!), hasMore: false });
  });

  it('when the store is empty, then the first page is empty without a cursor', () => {
    expect(new SandboxStore(1, 0, NOW).listChanges(null, 10)).toEqual({
      receipts: [],
      nextCursor: null,
      hasMore: false,
    });
  });

  it('when one receipt is asked for, then it is the one the list has; an unknown id is null', () => {
    const [first] = store.listChanges(null, 1).receipts;
    expect(store.receipt(first!.id)).toEqual(first);
    expect(store.receipt(1)).toBeNull();
  });
});

describe('change windows', () => {
  it('when a window is applied, then exactly the advanced and added receipts come after the cursor, later than any before, and deleted ones are gone', () => {
    const store = new SandboxStore(1, 300, NOW);
    const before = pageThrough(store, null, 100);
    let deleted: number[] = [];
    let changedIds: number[] = [];
    let windows = 0;
    let cursor = before.cursor;
    let latest = Math.max(...before.receipts.map((receipt) => Date.parse(receipt.updatedAt)));
    while (deleted.length === 0 && windows < 40) {
      const changes = store.advance(NOW + ++windows * MINUTE);
      expect(changes.window).toBe(windows);
      expect(changes.advanced.length).toBeGreaterThanOrEqual(2);
      expect(changes.added.length).toBeGreaterThanOrEqual(1);
      const after = pageThrough(store, cursor, 3);
      expect(after.receipts.map((receipt) => receipt.id).sort()).toEqual(
        [...changes.advanced, ...changes.added].sort(),
      );
      for (const receipt of after.receipts) {
        expect(Date.parse(receipt.updatedAt)).toBeGreaterThan(latest);
        latest = Date.parse(receipt.updatedAt);
      }
      cursor = after.cursor;
      deleted = changes.deleted;
      changedIds = changes.advanced;
    }
    expect(deleted).toHaveLength(1);
    expect(changedIds).not.toContain(deleted[0]);
    const all = pageThrough(store, null, 1000).receipts.map((receipt) => receipt.id);
    expect(all).not.toContain(deleted[0]);
    expect(store.receipt(deleted[0]!)).toBeNull();
    expect(all).toHaveLength(store.size);
  });

  it('when a receipt advances, then its status moves along the lifecycle', () => {
    const store = new SandboxStore(1, 300, NOW);
    const lifecycle = [
      'Pending',
      'Received at MIA warehouse',
      'Received at NL warehouse',
      'In-Transit',
      'Arrived',
      'At destination',
      'Received at SME warehouse',
      'Delivered',
      'On-Hold',
      'Cancelled',
    ];
    const moves = new Set<string>();
    for (let window = 1; window <= 30; window++) {
      const statuses = new Map(
        pageThrough(store, null, 1000).receipts.map((receipt) => [receipt.id, receipt.status]),
      );
      for (const id of store.advance(NOW + window * MINUTE).advanced) {
        const [from, to] = [statuses.get(id)!, store.receipt(id)!.status];
        expect(from).not.toBe(to);
        expect(['Delivered', 'Cancelled']).not.toContain(from);
        expect(lifecycle).toContain(to);
        moves.add(`${from} -> ${to}`);
      }
    }
    expect(moves).toContain('In-Transit -> Arrived');
    expect(moves).toContain('Received at SME warehouse -> Delivered');
  });

  it('when two stores of one seed apply the same windows, then they change the same receipts; another seed changes others', () => {
    const [a, b, c] = [
      new SandboxStore(5, 200, NOW),
      new SandboxStore(5, 200, NOW),
      new SandboxStore(6, 200, NOW),
    ];
    const run = (store: SandboxStore) =>
      Array.from({ length: 5 }, (_, i) => store.advance(NOW + (i + 1) * MINUTE));
    const first = run(a);
    expect(run(b)).toEqual(first);
    expect(run(c)).not.toEqual(first);
  });

  it('when time passes, then catching up applies one window per interval, and no more', () => {
    const store = new SandboxStore(1, 200, NOW);
    const { cursor } = pageThrough(store, null, 1000);
    store.catchUp(NOW + 59 * MINUTE, 60 * MINUTE);
    expect(store.listChanges(cursor, 1000).receipts).toHaveLength(0);
    store.catchUp(NOW + 61 * MINUTE, 60 * MINUTE);
    const changed = store.listChanges(cursor, 1000).receipts.length;
    expect(changed).toBeGreaterThanOrEqual(3);
    store.catchUp(NOW + 62 * MINUTE, 60 * MINUTE);
    expect(store.listChanges(cursor, 1000).receipts).toHaveLength(changed);
    expect(store.advance(NOW + 63 * MINUTE).window).toBe(2);
  });
});
