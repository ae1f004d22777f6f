/**
 * Every page of the receipt list, of every sort key in both directions, with and without filters, as
 * the admin and in a customer's scope, is the page a plain `ORDER BY … LIMIT … OFFSET …` query over the
 * mirror's tables answers, with its count. The mirror is seeded with few distinct values, so that most
 * receipts tie on every sort key and the order between them is the id's; a few have no date. Each page
 * is asked twice: the second answer comes from the read cache, and asking the pages in turn takes the
 * same query's cached matches. Runs on SQLite and, in the database leg, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_SORT_KEYS } from '~/shared/constants';
import type { ProviderReceipt } from '~/server/provider/contract';
import type { ApiClient } from '../../support/api-client';
import { assignConsignees, createUser, signIn, signedInAdmin } from '../../support/api-steps';
import type { InProcessPortal } from '../../support/in-process';
import { type OidcData, type OidcServer } from '../../support/oidc-server';
import { connectAtServer, startPortalAtOidcServer } from '../../support/oidc-steps';
import { stallLimit } from '../../support/test-pace';

const CLIENT_SECRET = 'receipts-pages-client-secret';
const RECEIPT_COUNT = 140;
const LIMIT = 10;
const CONSIGNEES = [
  { id: 1, name: 'Acme Trading N.V.' },
  { id: 2, name: 'acme trading n.v.' },
  { id: 3, name: 'Zeeland Parts B.V.' },
];
const DATES = [
  '2026-03-01T12:00:00.000Z',
  '2026-03-02T08:30:00.000Z',
  '2026-04-15T00:00:00.000Z',
  '',
];
const SHIPPERS = ['Marine Supply', 'marine supply', 'Ártico Inc', 'Lo & Co'];
const STATUSES = ['Received', 'In transit', 'Delivered'];

/** Ids far apart and out of order; every text from a handful of values, so that sort keys tie. */
function receipts(): ProviderReceipt[] {
  return Array.from({ length: RECEIPT_COUNT }, (_, index): ProviderReceipt => {
    const id = 1 + ((index * 7919) % 100_003) * 13;
    const consignee = CONSIGNEES[index % CONSIGNEES.length]!;
    return {
      id,
      number: `WR-${1000 + (index % 9)}`,
      receivedDate: DATES[index % DATES.length]!,
      shipperName: SHIPPERS[(index >> 1) % SHIPPERS.length]!,
      consigneeId: consignee.id,
      consigneeName: consignee.name,
      pieces: 1,
      totalWeightValue: 1,
      totalVolumeValue: 1,
      destination: index % 5 === 0 ? 'Paramaribo' : 'Rotterdam',
      status: STATUSES[index % STATUSES.length]!,
      modeOfTransportation: index % 2 ? 'Air' : 'Ocean',
      origin: { name: index % 4 ? 'Miami' : '' },
      commodities:
        index % 3
          ? [
              {
                description: 'Parts',
                trackingNumber: `1Z99${String(index % 4).repeat(8)}`,
                pieces: 1,
                totalWeightValue: 1,
                totalVolumeValue: 1,
              },
            ]
          : [],
      updatedAt: '2026-06-01T00:00:00.000Z',
    };
  });
}

/** The filters asked: none, one- and two-character searches (the in-memory index), a longer one (the database's), a tracking number, and both. */
const FILTERS: Array<{ search?: string; trackingNumber?: string }> = [
  {},
  { search: 'a' },
  { search: 'WR' },
  { search: 'marine' },
  { trackingNumber: '1z99 1111 1111' },
  { search: 'acme', trackingNumber: '1Z9922222222' },
];

interface Viewer {
  name: string;
  client: ApiClient;
  /** null: every receipt (the admin). */
  consigneeIds: number[] | null;
}

/** The viewer's scope and the filter as SQL over the mirror's tables, with their parameters. */
function referenceWhere(
  portal: InProcessPortal,
  viewer: Viewer,
  filter: (typeof FILTERS)[number],
): { whereClause: string; replacements: Record<string, unknown> } {
  const contains = (column: string, parameter: string) =>
    portal.portal.db.isSqlite
      ? `instr(${column}, :${parameter}) > 0`
      : `strpos(${column}, :${parameter}) > 0`;
  const where: string[] = [];
  const replacements: Record<string, unknown> = {};
  if (viewer.consigneeIds) {
    where.push(`r."consigneeId" IN (:consigneeIds)`);
    replacements['consigneeIds'] = viewer.consigneeIds;
  }
  if (filter.search) {
    where.push(contains('r."searchText"', 'search'));
    replacements['search'] = filter.search.toLowerCase();
  }
  if (filter.trackingNumber) {
    where.push(
      `EXISTS (SELECT 1 FROM "packages" p WHERE p."receiptId" = r."id" AND ${contains('p."trackingKey"', 'tracking')})`,
    );
    replacements['tracking'] = filter.trackingNumber.replace(/\s+/g, '').toUpperCase();
  }
  return { whereClause: where.length ? `WHERE ${where.join(' AND ')}` : '', replacements };
}

/**
 * The plain reference's count, straight from the mirror's tables. The mirror does not change while
 * the pages are asked: one count serves every sort and page of a viewer and filter.
 */
async function referenceCount(
  portal: InProcessPortal,
  viewer: Viewer,
  filter: (typeof FILTERS)[number],
): Promise<number> {
  const { whereClause, replacements } = referenceWhere(portal, viewer, filter);
  const [[counted]] = (await portal.portal.db.sequelize.query(
    `SELECT COUNT(*) AS "total" FROM "receipts" r ${whereClause}`,
    { replacements },
  )) as [Array<{ total: number | string }>, unknown];
  return Number(counted!.total);
}

/** The plain reference's page: one page by OFFSET, straight from the mirror's tables. */
async function referencePage(
  portal: InProcessPortal,
  viewer: Viewer,
  filter: (typeof FILTERS)[number],
  sortBy: (typeof LIST_SORT_KEYS)[number],
  sortOrder: 'asc' | 'desc',
  page: number,
): Promise<number[]> {
  const { whereClause, replacements } = referenceWhere(portal, viewer, filter);
  const column =
    sortBy === 'receivedDate'
      ? 'receivedDate'
      : sortBy === 'origin'
        ? 'originNameSort'
        : `${sortBy}Sort`;
  const direction = sortOrder === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST';
  const [rows] = await portal.portal.db.sequelize.query(
    `SELECT r."id" FROM "receipts" r ${whereClause} ORDER BY r."${column}" ${direction}, r."id" ${sortOrder.toUpperCase()} LIMIT :limit OFFSET :offset`,
    { replacements: { ...replacements, limit: LIMIT, offset: (page - 1) * LIMIT } },
  );
  return (rows as Array<{ id: number | string }>).map((row) => Number(row.id));
}

describe('every page of every sort', () => {
  let server: OidcServer;
  let portal: InProcessPortal;
  const viewers: Viewer[] = [];

  beforeAll(async () => {
    const data: OidcData = { consignees: CONSIGNEES, receipts: receipts() };
    ({ server, portal } = await startPortalAtOidcServer(
      { clientSecret: CLIENT_SECRET, accessTokenSeconds: 3600, data },
      {},
      { background: false },
    ));
    const admin = await signedInAdmin(portal);
    await connectAtServer(portal, admin);
    expect((await admin.post('/api/sync')).status).toBe(200);
    expect((await admin.post('/api/consignees/import')).status).toBe(200);
    const customer = await createUser(admin, 'pages-customer', 'viewer');
    await assignConsignees(admin, customer.id, [1, 3]);
    viewers.push(
      { name: 'the admin', client: admin, consigneeIds: null },
      {
        name: 'a customer of consignees 1 and 3',
        client: await signIn(portal, customer),
        consigneeIds: [1, 3],
      },
    );
  }, stallLimit(120_000));

  afterAll(async () => {
    await portal?.stop();
    await server?.stop();
  });

  it(
    'when every page is asked, by every sort key either way, filtered or not, as the admin and as a customer, then each is the OFFSET query’s page and count',
    async () => {
      for (const viewer of viewers) {
        for (const filter of FILTERS) {
          const total = await referenceCount(portal, viewer, filter);
          for (const sortBy of LIST_SORT_KEYS) {
            for (const sortOrder of ['asc', 'desc'] as const) {
              // The page past the last too: empty, with the count.
              const pages = Math.ceil(total / LIMIT) + 1;
              for (let page = 1; page <= pages; page += 1) {
                const expected = {
                  ids: await referencePage(portal, viewer, filter, sortBy, sortOrder, page),
                  total,
                };
                const params = new URLSearchParams({
                  ...filter,
                  sortBy,
                  sortOrder,
                  limit: String(LIMIT),
                  page: String(page),
                });
                for (const attempt of ['first', 'again'] as const) {
                  const response = await viewer.client.get(`/api/receipts?${params}`);
                  const what = `${attempt} GET /api/receipts?${params} as ${viewer.name}`;
                  expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(200);
                  expect(
                    response.body.data.map((receipt: { id: number }) => receipt.id),
                    what,
                  ).toEqual(expected.ids);
                  expect(response.body.pagination, what).toMatchObject({
                    currentPage: page,
                    totalItems: expected.total,
                    totalPages: Math.ceil(expected.total / LIMIT),
                  });
                  expect(response.body.meta.cached, what).toBe(attempt === 'again');
                }
              }
            }
          }
        }
      }
    },
    stallLimit(300_000),
  );
});
