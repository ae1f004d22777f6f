/**
 * The receipt list's in-memory parts (the orders and scopes of receipt-order.ts, the short-text index,
 * the response cache) checked against a plain SQL query over the mirror tables, on random data: texts
 * with accents, digits, punctuation and emoji, ties, missing dates, dense and sparse ids. Random users'
 * scopes, every sort in both directions, searches of one, two and three or more characters, tracking
 * numbers, any page; then again after a sync that changed a fifth of the receipts and added some.
 * Runs on SQLite and, in the database leg, on PostgreSQL. PROPERTY_SEED=<n> replays a run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_SORT_KEYS } from '~/shared/constants';
import type { ApiClient } from '../../support/api-client';
import { assignConsignees, createUser, signIn, signedInAdmin } from '../../support/api-steps';
import type { InProcessPortal } from '../../support/in-process';
import type { ProviderReceipt } from '~/server/provider/contract';
import { type OidcData, type OidcServer } from '../../support/oidc-server';
import { connectAtServer, startPortalAtOidcServer } from '../../support/oidc-steps';
import { stallLimit } from '../../support/test-pace';

const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = 120;
const CLIENT_SECRET = 'receipts-index-client-secret';
const CONSIGNEE_COUNT = 8;

/** Few characters, so that texts tie and searches match: cases, accents, digits, punctuation, LIKE's and FTS5's specials, an emoji. */
const CHARACTERS = [...'aAbeEéÉèëçÇnñÑuüÜøßİı0123456789 -.,&\'"%_\\/(*'].concat(['📦']);
const TRACKING_CHARACTERS = [...'ABCDEFXZ0123456789'];

const textOf = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...CHARACTERS), { minLength, maxLength }).map((parts) => parts.join(''));
const DATES = Array.from({ length: 12 }, (_, index) =>
  new Date(Date.UTC(2026, index % 6, 1 + index, 12)).toISOString(),
);

function receiptOf(id: number, consigneeNames: string[]) {
  return fc
    .record({
      number: textOf(0, 6),
      shipperName: textOf(0, 8),
      consignee: fc.integer({ min: 1, max: CONSIGNEE_COUNT }),
      status: textOf(0, 4),
      destination: textOf(0, 4),
      modeOfTransportation: textOf(0, 4),
      origin: textOf(0, 4),
      // An empty date is one the mirror cannot read: stored as none.
      receivedDate: fc.option(fc.constantFrom(...DATES), { freq: 6, nil: '' }),
      trackingNumbers: fc.array(
        fc.array(fc.constantFrom(...TRACKING_CHARACTERS), { minLength: 10, maxLength: 14 }),
        { maxLength: 3 },
      ),
    })
    .map((fields): ProviderReceipt => ({
      id,
      number: fields.number,
      receivedDate: fields.receivedDate,
      shipperName: fields.shipperName,
      consigneeId: fields.consignee,
      consigneeName: consigneeNames[fields.consignee - 1]!,
      pieces: 1,
      totalWeightValue: 1,
      totalVolumeValue: 1,
      destination: fields.destination,
      status: fields.status,
      modeOfTransportation: fields.modeOfTransportation,
      origin: { name: fields.origin },
      commodities: fields.trackingNumbers.map((characters) => ({
        description: 'Parts',
        trackingNumber: characters.join(''),
        pieces: 1,
        totalWeightValue: 1,
        totalVolumeValue: 1,
      })),
      updatedAt: '2026-06-01T00:00:00.000Z',
    }));
}

function datasetOf(idSpace: number, count: number) {
  return fc
    .record({
      // A consignee without a name is one the import leaves out (consignees.ts): each has one here.
      consigneeNames: fc.array(
        fc
          .tuple(
            fc.constantFrom(...CHARACTERS.filter((character) => character.trim())),
            textOf(0, 5),
          )
          .map(([first, rest]) => first + rest),
        { minLength: CONSIGNEE_COUNT, maxLength: CONSIGNEE_COUNT },
      ),
      ids: fc.uniqueArray(fc.integer({ min: 1, max: idSpace }), {
        minLength: count,
        maxLength: count,
      }),
    })
    .chain(({ consigneeNames, ids }) =>
      fc.tuple(...ids.map((id) => receiptOf(id, consigneeNames))).map((receipts): OidcData => ({
        consignees: consigneeNames.map((name, index) => ({ id: index + 1, name })),
        receipts,
      })),
    );
}

/** What the list asks: a user, a sort, maybe a search and a tracking number, a page size and a place. */
interface ListQuery {
  who: number;
  sortBy: (typeof LIST_SORT_KEYS)[number];
  sortOrder: 'asc' | 'desc';
  search: string | null;
  trackingNumber: string | null;
  limit: number;
  /** Where the page lies: 0 the first, 1 one past the last. */
  place: number;
}

/** Searches of one, two and three or more characters: cut from the receipts' own texts (in any case), or made up. */
function queryOf(receipts: () => ProviderReceipt[], users: number) {
  const cut = (text: string, start: number, length: number) =>
    [...text]
      .slice(start % Math.max(1, [...text].length))
      .slice(0, length)
      .join('');
  const fromData = fc
    .record({
      receipt: fc.nat(),
      field: fc.constantFrom('number', 'shipperName', 'consigneeName') as fc.Arbitrary<
        'number' | 'shipperName' | 'consigneeName'
      >,
      start: fc.nat(),
      length: fc.constantFrom(1, 2, 3, 4, 6),
      upper: fc.boolean(),
    })
    .map(({ receipt, field, start, length, upper }) => {
      const list = receipts();
      const text = cut(list[receipt % list.length]![field], start, length);
      return upper ? text.toUpperCase() : text;
    });
  const trackingFromData = fc
    .record({
      receipt: fc.nat(),
      start: fc.nat({ max: 4 }),
      spaced: fc.boolean(),
      lower: fc.boolean(),
    })
    .map(({ receipt, start, spaced, lower }) => {
      const withTracking = receipts().filter((candidate) => candidate.commodities.length > 0);
      const whole = withTracking[receipt % withTracking.length]!.commodities[0]!.trackingNumber!;
      // At least the 8 characters the API asks for.
      const begin = start % (whole.length - 7);
      const tracking = whole.slice(begin, begin + 8 + (start % 2));
      const typed = spaced ? `${tracking.slice(0, 4)} ${tracking.slice(4)}` : tracking;
      return lower ? typed.toLowerCase() : typed;
    });
  return fc.record<ListQuery>({
    who: fc.integer({ min: 0, max: users - 1 }),
    sortBy: fc.constantFrom(...LIST_SORT_KEYS),
    sortOrder: fc.constantFrom('asc', 'desc'),
    search: fc.option(fc.oneof(fromData, textOf(1, 1), textOf(2, 2), textOf(3, 5)), { freq: 3 }),
    trackingNumber: fc.option(
      fc.oneof(
        trackingFromData,
        fc
          .array(fc.constantFrom(...TRACKING_CHARACTERS), { minLength: 8, maxLength: 10 })
          .map((parts) => parts.join('')),
      ),
      { freq: 5 },
    ),
    limit: fc.constantFrom(1, 3, 10, 25, 100),
    place: fc.double({ min: 0, max: 1, noNaN: true }),
  });
}

interface Viewer {
  client: ApiClient;
  /** The consignees the user sees; null: every receipt (an administrator). */
  consigneeIds: number[] | null;
}

/** The plain reference: one SQL query over the mirror's tables, with nothing of the portal's list code. */
async function referenceIds(
  portal: InProcessPortal,
  viewer: Viewer,
  query: ListQuery,
): Promise<number[]> {
  const { sequelize, isSqlite } = portal.portal.db;
  const contains = (column: string, parameter: string) =>
    isSqlite ? `instr(${column}, :${parameter}) > 0` : `strpos(${column}, :${parameter}) > 0`;
  const where: string[] = [];
  const replacements: Record<string, unknown> = {};
  if (viewer.consigneeIds) {
    if (viewer.consigneeIds.length === 0) return [];
    where.push(`r."consigneeId" IN (:consigneeIds)`);
    replacements['consigneeIds'] = viewer.consigneeIds;
  }
  // The API trims what it is given; the search compares lower case, the tracking number upper case without spaces.
  const search = query.search?.trim().toLowerCase();
  if (search) {
    where.push(contains('r."searchText"', 'search'));
    replacements['search'] = search;
  }
  if (query.trackingNumber !== null) {
    where.push(
      `EXISTS (SELECT 1 FROM "packages" p WHERE p."receiptId" = r."id" AND ${contains('p."trackingKey"', 'tracking')})`,
    );
    replacements['tracking'] = query.trackingNumber.replace(/\s+/g, '').toUpperCase();
  }
  const column =
    query.sortBy === 'receivedDate'
      ? 'receivedDate'
      : query.sortBy === 'origin'
        ? 'originNameSort'
        : `${query.sortBy}Sort`;
  const direction = query.sortOrder === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST';
  const [rows] = await sequelize.query(
    `SELECT r."id" FROM "receipts" r ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY r."${column}" ${direction}, r."id" ${query.sortOrder.toUpperCase()}`,
    { replacements },
  );
  return (rows as Array<{ id: number | string }>).map((row) => Number(row.id));
}

/** One query through the API, checked against the reference: the page, the count, and the cached answer to the same query. */
async function checkQuery(
  portal: InProcessPortal,
  viewers: Viewer[],
  query: ListQuery,
): Promise<void> {
  const viewer = viewers[query.who]!;
  const expected = await referenceIds(portal, viewer, query);
  const pages = Math.max(1, Math.ceil(expected.length / query.limit));
  const page = 1 + Math.min(pages, Math.floor(query.place * (pages + 1)));
  const params = new URLSearchParams({
    sortBy: query.sortBy,
    sortOrder: query.sortOrder,
    limit: String(query.limit),
    page: String(page),
  });
  if (query.search !== null) params.set('search', query.search);
  if (query.trackingNumber !== null) params.set('trackingNumber', query.trackingNumber);
  for (const attempt of ['first', 'again'] as const) {
    const response = await viewer.client.get(`/api/receipts?${params}`);
    const what = `${attempt} GET /api/receipts?${params} as ${viewer.consigneeIds ? `the viewer of ${viewer.consigneeIds}` : 'the admin'} (PROPERTY_SEED=${SEED})`;
    expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(200);
    expect(
      response.body.data.map((receipt: { id: number }) => receipt.id),
      what,
    ).toEqual(expected.slice((page - 1) * query.limit, page * query.limit));
    expect(response.body.pagination.totalItems, what).toBe(expected.length);
  }
}

/** A fifth of the receipts in new versions (every text, date, consignee and tracking number drawn again), and a few new receipts. */
function changesOf(data: OidcData, idSpace: number) {
  const known = new Set(data.receipts.map((receipt) => receipt.id));
  const names = data.consignees.map((consignee) => consignee.name);
  return fc
    .tuple(
      fc.subarray(data.receipts, {
        minLength: Math.floor(data.receipts.length / 5),
        maxLength: Math.floor(data.receipts.length / 5),
      }),
      fc.uniqueArray(
        fc.integer({ min: 1, max: idSpace * 2 }).filter((id) => !known.has(id)),
        { minLength: 10, maxLength: 10 },
      ),
    )
    .chain(([changed, added]) =>
      fc.tuple(
        ...[...changed.map((receipt) => receipt.id), ...added].map((id) => receiptOf(id, names)),
      ),
    )
    .map((receipts) =>
      receipts.map((receipt) => ({ ...receipt, updatedAt: '2026-07-01T00:00:00.000Z' })),
    );
}

function describeDataset(name: string, idSpace: number, count: number) {
  describe(name, () => {
    const data = fc.sample(datasetOf(idSpace, count), { seed: SEED, numRuns: 1 })[0]!;
    let receipts = data.receipts;
    let server: OidcServer;
    let portal: InProcessPortal;
    const viewers: Viewer[] = [];
    /** The queries asked of the first state: asked again of the next, whose answers must not be the cached old ones. */
    const asked: ListQuery[] = [];

    beforeAll(async () => {
      try {
        ({ server, portal } = await startPortalAtOidcServer(
          { clientSecret: CLIENT_SECRET, accessTokenSeconds: 3600, data },
          { LOGIN_MAX_ATTEMPTS: '1000' },
          { background: false },
        ));
        const admin = await signedInAdmin(portal);
        await connectAtServer(portal, admin);
        const sync = await admin.post('/api/sync');
        expect(sync.status, JSON.stringify(sync.body)).toBe(200);
        const imported = await admin.post('/api/consignees/import');
        expect(imported.status, JSON.stringify(imported.body)).toBe(200);
        viewers.push({ client: admin, consigneeIds: null });
        // Random scopes: none, one, several, every consignee.
        const scopes = fc.sample(
          fc.uniqueArray(fc.integer({ min: 1, max: CONSIGNEE_COUNT }), {
            maxLength: CONSIGNEE_COUNT,
          }),
          { seed: SEED, numRuns: 5 },
        );
        for (const [index, scope] of [[], ...scopes].entries()) {
          const user = await createUser(admin, `viewer${index}`, 'viewer');
          if (scope.length) await assignConsignees(admin, user.id, scope);
          viewers.push({
            client: await signIn(portal, user),
            consigneeIds: [...scope].sort((a, b) => a - b),
          });
        }
      } catch (error) {
        // The data is the seed's: say which, with what the portal logged.
        throw new Error(
          `setting up with PROPERTY_SEED=${SEED} failed: ${error instanceof Error ? error.message : String(error)}\n${portal?.output() ?? ''}`,
          {
            cause: error,
          },
        );
      }
    }, stallLimit(120_000));

    afterAll(async () => {
      await portal?.stop();
      await server?.stop();
    });

    it(
      'when random users list, search, sort and page, then every page and count is the plain query’s',
      async () => {
        await fc.assert(
          fc.asyncProperty(
            queryOf(() => receipts, viewers.length),
            (query) => {
              asked.push(query);
              return checkQuery(portal, viewers, query);
            },
          ),
          { seed: SEED, numRuns: RUNS },
        );
      },
      stallLimit(240_000),
    );

    it(
      'when a sync changes a fifth of the receipts and adds some, then every page and count is the plain query’s of the new state',
      async () => {
        const changes = fc.sample(changesOf(data, idSpace), { seed: SEED, numRuns: 1 })[0]!;
        server.changeReceipts(changes);
        const sync = await viewers[0]!.client.post('/api/sync');
        expect(sync.status).toBe(200);
        expect(sync.body.data.written).toBe(changes.length);
        receipts = [
          ...new Map(
            [...data.receipts, ...changes].map((receipt) => [receipt.id, receipt]),
          ).values(),
        ];
        for (const query of asked) await checkQuery(portal, viewers, query);
        await fc.assert(
          fc.asyncProperty(
            queryOf(() => receipts, viewers.length),
            (query) => checkQuery(portal, viewers, query),
          ),
          { seed: SEED + 1, numRuns: RUNS },
        );
      },
      stallLimit(240_000),
    );
  });
}

describeDataset('300 receipts numbered closely (the slots found through a table)', 400, 300);
describeDataset(
  '300 receipts numbered far apart (the slots found by binary search)',
  50_000_000,
  300,
);
