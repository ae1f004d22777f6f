/** GET /api/receipts, /api/receipts/{id}, /api/receipts/stats over the mirror of the sandbox provider. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  createUser,
  expectError,
  signIn,
  signedInAdmin,
  waitForMirror,
} from '../../support/api-steps';

const RECEIPT_FIELDS = [
  'commodities',
  'consigneeName',
  'destination',
  'id',
  'modeOfTransportation',
  'number',
  'origin',
  'pieces',
  'receivedDate',
  'shipperName',
  'status',
  'totalVolumeValue',
  'totalWeightValue',
];
const COMMODITY_FIELDS = [
  'description',
  'pieces',
  'totalVolumeValue',
  'totalWeightValue',
  'trackingNumber',
];
const SORT_KEYS = [
  'receivedDate',
  'number',
  'shipperName',
  'consigneeName',
  'status',
  'destination',
  'modeOfTransportation',
  'origin',
] as const;
type SortKey = (typeof SORT_KEYS)[number];

let portal: InProcessPortal;
let admin: ApiClient;
let adminViewer: ApiClient;
let everything: Array<Record<string, any>>;

beforeAll(async () => {
  // A long interval keeps the sandbox's data still while these tests read it.
  portal = await startInProcessPortal({ SYNC_INTERVAL_SECONDS: '3600', SANDBOX_RECEIPTS: '300' });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  adminViewer = await signIn(portal, await createUser(admin, 'overseer', 'admin-viewer'));
  everything = await allReceipts(admin);
});

afterAll(async () => {
  await portal?.stop();
});

const compare = (a: unknown, b: unknown) => (a === b ? 0 : String(a) < String(b) ? -1 : 1);
/** How people read lists: case and accents ignored, digit runs by value (the order every text key must give). */
const readingOrder = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare;
/** A receipt's order by a sort key, ties by id: dates as ISO text (none first), texts as people read them. */
function bySortKey(sortBy: SortKey) {
  const value = (receipt: Record<string, any>): string =>
    sortBy === 'origin' ? receipt.origin.name : receipt[sortBy];
  const compareValues = sortBy === 'receivedDate' ? compare : readingOrder;
  return (a: Record<string, any>, b: Record<string, any>) =>
    compareValues(value(a), value(b)) || Math.sign(a.id - b.id);
}

describe('list', () => {
  it('when the list is asked for without parameters, then it answers page 1 of 20, newest received first, as data, pagination and meta', async () => {
    const response = await admin.get('/api/receipts');
    expect(response.status).toBe(200);
    const { data, pagination, meta } = response.body;
    expect(Object.keys(response.body).sort()).toEqual(['data', 'meta', 'pagination', 'success']);
    expect(data).toHaveLength(20);
    expect(pagination).toEqual({
      currentPage: 1,
      itemsPerPage: 20,
      totalItems: 300,
      totalPages: 15,
      hasNextPage: true,
      hasPrevPage: false,
    });
    expect(typeof meta.cached).toBe('boolean');
    expect(typeof meta.processingTime).toBe('number');
    for (const receipt of data) {
      expect(Object.keys(receipt).sort()).toEqual(RECEIPT_FIELDS);
      expect(Object.keys(receipt.origin)).toEqual(['name']);
      for (const commodity of receipt.commodities)
        expect(Object.keys(commodity).sort()).toEqual(COMMODITY_FIELDS);
    }
    const dates = data.map((receipt: any) => receipt.receivedDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(data).toEqual(everything.slice(0, 20));
  });

  it('when the pages are walked, then every receipt comes exactly once and the flags follow the position', async () => {
    expect(everything).toHaveLength(300);
    expect(new Set(everything.map((receipt) => receipt.id)).size).toBe(300);
    const last = await admin.get('/api/receipts?page=15');
    expect(last.body.pagination).toMatchObject({
      currentPage: 15,
      hasNextPage: false,
      hasPrevPage: true,
    });
    expect(last.body.data).toEqual(everything.slice(280, 300));
    const beyond = await admin.get('/api/receipts?page=16');
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toMatchObject({
      currentPage: 16,
      totalItems: 300,
      hasNextPage: false,
      hasPrevPage: true,
    });
  });

  it('when the receipts hold packages, then some have none and others up to six, with carrier tracking numbers', () => {
    const counts = everything.map((receipt) => receipt.commodities.length);
    expect(Math.min(...counts)).toBe(0);
    expect(Math.max(...counts)).toBeLessThanOrEqual(6);
    expect(
      everything.some((receipt) =>
        receipt.commodities.some((commodity: any) =>
          /^1Z[0-9A-Z]{16}$/.test(commodity.trackingNumber),
        ),
      ),
    ).toBe(true);
  });

  it.each(
    SORT_KEYS.flatMap(
      (key) =>
        [
          [key, 'asc'],
          [key, 'desc'],
        ] as const,
    ),
  )(
    'when sorted by %s %s, then the pages hold every receipt in the order people read (case, accents ignored, numbers by value), ties by id',
    async (sortBy, sortOrder) => {
      const sorted = await allReceipts(admin, `sortBy=${sortBy}&sortOrder=${sortOrder}`);
      const direction = sortOrder === 'asc' ? 1 : -1;
      const expected = [...everything].sort((a, b) => bySortKey(sortBy)(a, b) * direction);
      expect(sorted.map((receipt) => receipt.id)).toEqual(expected.map((receipt) => receipt.id));
    },
  );
});

describe('reading order', () => {
  it('when sorted by shipper, then eBay Inc. stands between the D and the F names, not after the capitals', async () => {
    const shippers = [
      ...new Set(
        (await allReceipts(admin, 'sortBy=shipperName&sortOrder=asc')).map(
          (receipt) => receipt.shipperName as string,
        ),
      ),
    ];
    const position = (name: string) => shippers.indexOf(name);
    expect([
      position('eBay Inc.'),
      position('Doral Electronics Wholesale LLC'),
      position('Hialeah Tire & Wheel Export'),
    ]).not.toContain(-1);
    expect(position('eBay Inc.')).toBeGreaterThan(position('Doral Electronics Wholesale LLC'));
    expect(position('eBay Inc.')).toBeLessThan(position('Hialeah Tire & Wheel Export'));
  });
});

describe('sorting a filtered list', () => {
  // 'e' and 'an' are below the trigram index's reach and have their own; 'wr-' (every receipt number) uses the trigrams.
  // Many matches are paged by walking the order, few ('hialeah': one small shipper) by sorting them; 'b.v' meets both.
  it.each(
    SORT_KEYS.flatMap((key) =>
      ['e', 'an', 'wr-', 'b.v', 'hialeah'].flatMap(
        (term) =>
          [
            [key, 'asc', term],
            [key, 'desc', term],
          ] as const,
      ),
    ),
  )(
    'when a search is sorted by %s %s (search %s), then the pages hold exactly its matches in that order',
    async (sortBy, sortOrder, term) => {
      const direction = sortOrder === 'asc' ? 1 : -1;
      const expected = everything
        .filter((receipt) =>
          [receipt.number, receipt.shipperName, receipt.consigneeName].some((field: string) =>
            field.toLowerCase().includes(term),
          ),
        )
        .sort((a, b) => bySortKey(sortBy)(a, b) * direction);
      expect(expected.length).toBeGreaterThan(0);
      const sorted = await allReceipts(
        admin,
        `search=${encodeURIComponent(term)}&sortBy=${sortBy}&sortOrder=${sortOrder}`,
      );
      expect(sorted.map((receipt) => receipt.id)).toEqual(expected.map((receipt) => receipt.id));
    },
  );
});

describe('search and tracking numbers', () => {
  it('when searching part of a shipper name in another case, then exactly the receipts whose number, shipper or consignee contain it come back', async () => {
    const shipper: string = everything[7]!.shipperName;
    const term = shipper.slice(1, 6).toUpperCase();
    const expected = everything.filter((receipt) =>
      [receipt.number, receipt.shipperName, receipt.consigneeName].some((field: string) =>
        field.toLowerCase().includes(term.toLowerCase()),
      ),
    );
    const found = await allReceipts(admin, `search=${encodeURIComponent(term)}`);
    expect(found.map((receipt) => receipt.id).sort()).toEqual(
      expected.map((receipt) => receipt.id).sort(),
    );
    expect(found.length).toBeGreaterThan(0);
  });

  it('when searching a receipt number or a consignee, then it is found', async () => {
    const receipt = everything[42]!;
    const byNumber = await admin.get(
      `/api/receipts?search=${encodeURIComponent(receipt.number.toLowerCase())}`,
    );
    expect(byNumber.body.data.map((row: any) => row.id)).toContain(receipt.id);
    const byConsignee = await allReceipts(
      admin,
      `search=${encodeURIComponent(receipt.consigneeName)}`,
    );
    expect(byConsignee.map((row) => row.id)).toContain(receipt.id);
    expect(
      byConsignee.every((row) =>
        [row.number, row.shipperName, row.consigneeName].some((field: string) =>
          field.includes(receipt.consigneeName),
        ),
      ),
    ).toBe(true);
  });

  it.each([['1'], ['0'], ['.'], ['b.'], ['&'], ['ö'], ['zq']])(
    'when searching the one or two characters %s, then exactly the receipts containing them come back',
    async (term) => {
      const expected = everything.filter((receipt) =>
        [receipt.number, receipt.shipperName, receipt.consigneeName].some((field: string) =>
          field.toLowerCase().includes(term),
        ),
      );
      const found = await allReceipts(admin, `search=${encodeURIComponent(term)}`);
      expect(found.map((receipt) => receipt.id).sort()).toEqual(
        expected.map((receipt) => receipt.id).sort(),
      );
    },
  );

  // PostgreSQL matches with LIKE: its wildcards and escape character must match only themselves.
  it.each([['e_e'], ['%a%'], ['n\\a'], ['_%_']])(
    'when searching %s, then only receipts containing it literally come back',
    async (term) => {
      const expected = everything.filter((receipt) =>
        [receipt.number, receipt.shipperName, receipt.consigneeName].some((field: string) =>
          field.toLowerCase().includes(term),
        ),
      );
      const found = await allReceipts(admin, `search=${encodeURIComponent(term)}`);
      expect(found.map((receipt) => receipt.id).sort()).toEqual(
        expected.map((receipt) => receipt.id).sort(),
      );
    },
  );

  it('when a search and a tracking number are given together, then only receipts matching both come back', async () => {
    const holder = everything.find((receipt) =>
      receipt.commodities.some((commodity: any) => commodity.trackingNumber),
    )!;
    const tracking: string = holder.commodities.find(
      (commodity: any) => commodity.trackingNumber,
    ).trackingNumber;
    const both = await allReceipts(
      admin,
      `trackingNumber=${encodeURIComponent(tracking)}&search=${encodeURIComponent(holder.number)}`,
    );
    expect(both.map((receipt) => receipt.id)).toEqual([holder.id]);
    const other = everything.find((receipt) => receipt.id !== holder.id)!;
    expect(
      await allReceipts(
        admin,
        `trackingNumber=${encodeURIComponent(tracking)}&search=${encodeURIComponent(other.number)}`,
      ),
    ).toEqual([]);
  });

  it('when filtering by a tracking number in lower case, then the receipt holding that package comes back', async () => {
    const receipt = everything.find((row) =>
      row.commodities.some((commodity: any) => commodity.trackingNumber?.length >= 12),
    )!;
    const trackingNumber: string = receipt.commodities.find(
      (commodity: any) => commodity.trackingNumber?.length >= 12,
    ).trackingNumber;
    const response = await admin.get(
      `/api/receipts?trackingNumber=${encodeURIComponent(trackingNumber.toLowerCase())}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data.map((row: any) => row.id)).toContain(receipt.id);
    for (const row of response.body.data) {
      expect(
        row.commodities.some((commodity: any) =>
          commodity.trackingNumber?.toUpperCase().includes(trackingNumber.toUpperCase()),
        ),
      ).toBe(true);
    }
  });

  it('when filtering by the last ten characters of a tracking number, with spaces, then the receipt is found', async () => {
    const receipt = everything.find((row) =>
      row.commodities.some((commodity: any) => commodity.trackingNumber?.length >= 18),
    )!;
    const trackingNumber: string = receipt.commodities.find(
      (commodity: any) => commodity.trackingNumber?.length >= 18,
    ).trackingNumber;
    const tail = trackingNumber.slice(-10);
    const spaced = `${tail.slice(0, 5)} ${tail.slice(5)}`;
    const found = await allReceipts(admin, `trackingNumber=${encodeURIComponent(spaced)}`);
    expect(found.map((row) => row.id)).toContain(receipt.id);
    const expected = everything.filter((row) =>
      row.commodities.some((commodity: any) =>
        commodity.trackingNumber?.toUpperCase().includes(tail.toUpperCase()),
      ),
    );
    expect(found.map((row) => row.id).sort()).toEqual(expected.map((row) => row.id).sort());
  });

  it('when the tracking number is shorter than 8 characters, then 400 with the exact message', async () => {
    expectError(
      await admin.get('/api/receipts?trackingNumber=1Z99999'),
      400,
      'VALIDATION_ERROR',
      'Tracking number must be at least 8 characters',
    );
  });

  it('when a tracking number matches nothing, then the list is empty, not an error', async () => {
    const response = await admin.get('/api/receipts?trackingNumber=NOSUCHPACKAGE00');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination).toMatchObject({
      totalItems: 0,
      totalPages: 0,
      hasNextPage: false,
    });
  });
});

describe('hostile and odd parameters', () => {
  it.each([
    ['page=0'],
    ['page=-3'],
    ['page=abc'],
    ['page=99999999999'],
    ['limit=101'],
    ['limit=0'],
    ['limit=1e2'],
    ['sortBy=passwordHash'],
    ['sortBy=id;DROP TABLE receipts'],
    ['sortOrder=1'],
    [`search=${'x'.repeat(101)}`],
  ])('when the query is %s, then 400 VALIDATION_ERROR', async (query) => {
    expectError(await admin.get(`/api/receipts?${query}`), 400, 'VALIDATION_ERROR');
  });

  it.each([["' OR 1=1 --"], ['%'], ['_'], ['"; DROP TABLE receipts; --'], ['\\'], ['日本']])(
    'when the search is %s, then it is matched as plain text',
    async (term) => {
      const response = await admin.get(`/api/receipts?search=${encodeURIComponent(term)}`);
      expect(response.status).toBe(200);
      const expected = everything.filter((receipt) =>
        [receipt.number, receipt.shipperName, receipt.consigneeName].some((field: string) =>
          field.toLowerCase().includes(term.toLowerCase()),
        ),
      );
      expect(response.body.pagination.totalItems).toBe(expected.length);
    },
  );

  it('when a parameter is repeated or unknown, then the first value counts and the rest is ignored', async () => {
    const response = await admin.get('/api/receipts?limit=5&limit=500&color=blue');
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(5);
  });

  it('when the receipt id is not a number or names nothing, then 404', async () => {
    expectError(await admin.get('/api/receipts/abc'), 404, 'NOT_FOUND');
    expectError(await admin.get('/api/receipts/1.5'), 404, 'NOT_FOUND');
    expectError(await admin.get('/api/receipts/999999999'), 404, 'NOT_FOUND', 'Receipt not found');
  });

  it('when nobody is signed in, then every receipts call is 401', async () => {
    const anonymous = new ApiClient(portal);
    for (const path of [
      '/api/receipts',
      '/api/receipts/1',
      '/api/receipts/stats',
      '/api/package-tracker/search?trackingNumber=12345678',
    ]) {
      expectError(await anonymous.get(path), 401, 'AUTHENTICATION_ERROR');
    }
  });
});

describe('one receipt', () => {
  it('when an admin or admin-viewer asks for a receipt, then it comes with its packages, as in the list', async () => {
    const receipt = everything.find((row) => row.commodities.length > 1)!;
    for (const client of [admin, adminViewer]) {
      const response = await client.get(`/api/receipts/${receipt.id}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...receipt,
        history: [{ status: receipt.status, at: expect.any(String) }],
        prealerts: [],
      });
    }
  });
});

describe('statistics', () => {
  it('when the stats are asked for, then they equal what the receipts add up to', async () => {
    const response = await adminViewer.get('/api/receipts/stats');
    expect(response.status).toBe(200);
    const stats = response.body.data;
    const sum = (key: string) => everything.reduce((total, receipt) => total + receipt[key], 0);
    const now = new Date();
    const monthStart = new Date(now.getFullYear(), now.getMonth(), 1);
    const weekStart = new Date(
      now.getFullYear(),
      now.getMonth(),
      now.getDate() - ((now.getDay() + 6) % 7),
    );
    const since = (start: Date) =>
      everything.filter((receipt) => new Date(receipt.receivedDate) >= start).length;
    expect(stats.totalReceipts).toBe(300);
    expect(stats.totalWeight).toBeCloseTo(sum('totalWeightValue'), 6);
    expect(stats.totalVolume).toBeCloseTo(sum('totalVolumeValue'), 6);
    expect(stats.totalPieces).toBe(sum('pieces'));
    expect(stats.receiptsThisMonth).toBe(since(monthStart));
    expect(stats.receiptsThisWeek).toBe(since(weekStart));
    expect(stats.receiptsThisWeek).toBeGreaterThan(0);
    expect(stats.averageWeight).toBeCloseTo(sum('totalWeightValue') / 300, 6);
    expect(stats.averageVolume).toBeCloseTo(sum('totalVolumeValue') / 300, 6);

    const top = (key: string) => {
      const counts = new Map<string, number>();
      for (const receipt of everything)
        counts.set(receipt[key], (counts.get(receipt[key]) ?? 0) + 1);
      return [...counts]
        .map(([name, count]) => ({ name, count }))
        .sort((a, b) => b.count - a.count || compare(a.name, b.name))
        .slice(0, 5);
    };
    expect(stats.topShippers).toEqual(top('shipperName'));
    expect(stats.topConsignees).toEqual(top('consigneeName'));
  });
});

describe('response cache', () => {
  it('when the same query comes twice, then the second answer is served from the cache with the same data', async () => {
    const query = '/api/receipts?search=a&sortBy=status&page=2';
    const first = await admin.get(query);
    const second = await admin.get(query);
    expect(first.body.meta.cached).toBe(false);
    expect(second.body.meta.cached).toBe(true);
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.pagination).toEqual(first.body.pagination);
  });
});
