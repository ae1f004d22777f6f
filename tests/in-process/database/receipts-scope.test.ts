/** A viewer sees only the receipts, packages, stats and tracking matches of their consignees. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  assignConsignees,
  createUser,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
} from '../../support/api-steps';

const DEMO_PASSWORD = 'demo-password-1';

let portal: InProcessPortal;
let admin: ApiClient;
let demo: ApiClient;
let stranger: ApiClient;
let everything: Array<Record<string, any>>;
let demoConsignees: string[];

beforeAll(async () => {
  portal = await startInProcessPortal({
    SYNC_INTERVAL_SECONDS: '3600',
    SANDBOX_RECEIPTS: '400',
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
    SANDBOX_CONTROL: 'true',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  everything = await allReceipts(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  demoConsignees = (
    await queryDatabase<{ name: string }>(
      portal,
      'SELECT c.name FROM consignee_assignments a JOIN consignees c ON c.id = a.consigneeId JOIN users u ON u.id = a.userId WHERE u.username = ?',
      ['demo'],
    )
  ).map((row) => row.name);
  stranger = await signIn(portal, await createUser(admin, 'stranger', 'viewer'));
});

afterAll(async () => {
  await portal?.stop();
});

const mine = () => everything.filter((receipt) => demoConsignees.includes(receipt.consigneeName));
const theirs = () =>
  everything.filter((receipt) => !demoConsignees.includes(receipt.consigneeName));

describe('the demo customer', () => {
  it('when the portal starts with DEMO_USERS, then a viewer "demo" exists with three consignees that have receipts', async () => {
    expect(demoConsignees).toHaveLength(3);
    expect(mine().length).toBeGreaterThan(0);
    expect(portal.output()).toMatch(/Demo customer \\"demo\\" created/);
    expect(portal.output()).not.toContain(DEMO_PASSWORD);
  });

  it('when the demo customer lists receipts, then exactly the receipts of its consignees come back', async () => {
    const seen = await allReceipts(demo);
    expect(seen.map((receipt) => receipt.id).sort()).toEqual(
      mine()
        .map((receipt) => receipt.id)
        .sort(),
    );
  });

  it.each([
    ['shipperName', 'asc', 'in'],
    ['consigneeName', 'desc', 'a'],
    ['receivedDate', 'desc', 'wr-1'],
  ])(
    'when the demo customer searches and sorts by %s %s (search %s), then exactly its matching receipts come back in order',
    async (sortBy, sortOrder, term) => {
      const readingOrder = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })
        .compare;
      const compareValues =
        sortBy === 'receivedDate'
          ? (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
          : readingOrder;
      const expected = mine()
        .filter((receipt) =>
          [receipt.number, receipt.shipperName, receipt.consigneeName].some((field: string) =>
            field.toLowerCase().includes(term),
          ),
        )
        .sort(
          (a, b) =>
            (compareValues(a[sortBy], b[sortBy]) || Math.sign(a.id - b.id)) *
            (sortOrder === 'asc' ? 1 : -1),
        );
      expect(expected.length).toBeGreaterThan(0);
      const seen = await allReceipts(
        demo,
        `search=${term}&sortBy=${sortBy}&sortOrder=${sortOrder}`,
      );
      expect(seen.map((receipt) => receipt.id)).toEqual(expected.map((receipt) => receipt.id));
    },
  );

  it('when the demo customer searches for another consignee by name, then nothing comes back', async () => {
    const other = theirs()[0]!;
    const response = await demo.get(
      `/api/receipts?search=${encodeURIComponent(other.consigneeName)}`,
    );
    expect(response.status).toBe(200);
    expect(
      response.body.data.filter((receipt: any) => receipt.consigneeName === other.consigneeName),
    ).toEqual([]);
  });

  it('when the demo customer asks for another consignee’s receipt by id, then 404 as if it did not exist', async () => {
    expectError(
      await demo.get(`/api/receipts/${theirs()[0]!.id}`),
      404,
      'NOT_FOUND',
      'Receipt not found',
    );
    const own = mine()[0]!;
    expect((await demo.get(`/api/receipts/${own.id}`)).body.data).toEqual({
      ...own,
      history: [{ status: own.status, at: expect.any(String) }],
      prealerts: [],
    });
  });

  it('when the demo customer filters by a tracking number on another consignee’s receipt, then nothing comes back', async () => {
    const other = theirs().find((receipt) =>
      receipt.commodities.some((commodity: any) => commodity.trackingNumber),
    )!;
    const trackingNumber = other.commodities.find(
      (commodity: any) => commodity.trackingNumber,
    ).trackingNumber;
    const response = await demo.get(
      `/api/receipts?trackingNumber=${encodeURIComponent(trackingNumber)}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data.map((receipt: any) => receipt.id)).not.toContain(other.id);
    const forAdmin = await admin.get(
      `/api/receipts?trackingNumber=${encodeURIComponent(trackingNumber)}`,
    );
    expect(forAdmin.body.data.map((receipt: any) => receipt.id)).toContain(other.id);
  });

  it('when the demo customer asks for stats, then they count only its receipts', async () => {
    const stats = (await demo.get('/api/receipts/stats')).body.data;
    const own = mine();
    expect(stats.totalReceipts).toBe(own.length);
    expect(stats.totalPieces).toBe(own.reduce((total, receipt) => total + receipt.pieces, 0));
    expect(stats.totalWeight).toBeCloseTo(
      own.reduce((total, receipt) => total + receipt.totalWeightValue, 0),
      6,
    );
    expect(
      stats.topConsignees
        .map((entry: any) => entry.name)
        .every((name: string) => demoConsignees.includes(name)),
    ).toBe(true);
  });
});

describe('the live package look-up in a viewer’s scope', () => {
  it('when a scanned package sits on another consignee’s receipt, then the viewer gets no scans for it, the admin does', async () => {
    const samples = (await new ApiClient(portal).get('/sandbox/control/samples')).body;
    const ownIds = new Set(mine().map((receipt) => receipt.id));
    const foreign = samples.scannedPackages.find(
      (entry: any) =>
        !ownIds.has(entry.receiptId) &&
        everything.some((receipt) => receipt.id === entry.receiptId),
    );
    expect(foreign).toBeDefined();
    const path = `/api/package-tracker/search?trackingNumber=${encodeURIComponent(foreign.trackingNumber)}`;
    const forAdmin = await admin.get(path);
    expect(forAdmin.status).toBe(200);
    expect(forAdmin.body.data.length).toBeGreaterThan(0);
    expect(forAdmin.body.data[0]).toMatchObject({ tracking_number: foreign.trackingNumber });
    expect(typeof forAdmin.body.data[0].scanned_at).toBe('string');
    expect((await demo.get(path)).body).toEqual({ success: true, data: [] });
  });

  it('when a scanned package is on no receipt yet, then every signed-in user sees its scans', async () => {
    const samples = (await new ApiClient(portal).get('/sandbox/control/samples')).body;
    const trackingNumber: string = samples.trackingNumbersWithoutReceipt[0];
    const response = await demo.get(
      `/api/package-tracker/search?trackingNumber=${encodeURIComponent(trackingNumber.toLowerCase())}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(0);
    expect(
      response.body.data.every(
        (scan: any) => scan.tracking_number.toUpperCase() === trackingNumber.toUpperCase(),
      ),
    ).toBe(true);
  });

  it('when the look-up number is too short, then 400 with the exact message', async () => {
    expectError(
      await demo.get('/api/package-tracker/search?trackingNumber=1Z999'),
      400,
      'VALIDATION_ERROR',
      'Tracking number must be at least 8 characters',
    );
    expectError(
      await demo.get('/api/package-tracker/search'),
      400,
      'VALIDATION_ERROR',
      'Tracking number must be at least 8 characters',
    );
  });
});

describe('a viewer without consignees', () => {
  it('when they list, search or ask for stats, then they get nothing and no error', async () => {
    const list = await stranger.get('/api/receipts');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect(list.body.pagination.totalItems).toBe(0);
    const stats = (await stranger.get('/api/receipts/stats')).body.data;
    expect(stats).toMatchObject({
      totalReceipts: 0,
      totalWeight: 0,
      averageWeight: 0,
      topShippers: [],
      topConsignees: [],
    });
    expectError(await stranger.get(`/api/receipts/${everything[0]!.id}`), 404, 'NOT_FOUND');
  });

  it('when one consignee is assigned to them, then they see exactly its receipts', async () => {
    const target = everything[5]!;
    const [row] = await queryDatabase<{ id: number }>(
      portal,
      'SELECT consigneeId AS id FROM receipts WHERE id = ?',
      [target.id],
    );
    const viewer = await createUser(admin, 'assigned', 'viewer');
    await assignConsignees(admin, viewer.id, [row!.id]);
    const client = await signIn(portal, viewer);
    const seen = await allReceipts(client);
    const expected = everything.filter((receipt) => receipt.consigneeName === target.consigneeName);
    expect(seen.map((receipt) => receipt.id).sort()).toEqual(
      expected.map((receipt) => receipt.id).sort(),
    );
  });
});
