/**
 * Personal API tokens: a user makes a token in Profile Settings (`POST /api/auth/tokens`), shown once
 * and stored as its SHA-256, and their own systems send it as `Authorization: Bearer fp_…` to read the
 * receipts (list, detail with history, stats, CSV) and tracking, in the owner's scope and nothing else:
 * no writes, no administration, no pages, no session touched and no cookie set. A token that does not
 * work says why (unknown, revoked, expired); each token has a per-minute limit shared by every process
 * on the database; disabling or deleting the user ends their tokens; an admin sees how many a user has
 * and revokes them all.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse, type RequestOptions } from '../../support/api-client';
import {
  allReceipts,
  createUser,
  databaseText,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
  type TestUser,
} from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';

const DEMO_PASSWORD = 'demo-password-1';
const RATE_PER_MINUTE = 8;
const DAY_MS = 86_400_000;
const DUTCH = { 'Accept-Language': 'nl' };
const TOKEN_SHAPE = /^fp_[0-9A-Za-z]{43}$/;

const INVALID =
  'This API token is not valid. Send a token made in Profile Settings as "Authorization: Bearer fp_…".';
const REVOKED = 'This API token has been revoked. Create a new one in Profile Settings.';
const ROUTE_REFUSED =
  'An API token can only read receipts, tracking and pre-alerts. Sign in to the portal for anything else.';

interface CreatedToken {
  id: number;
  token: string;
  name: string;
  prefix: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  expired: boolean;
}

let portal: InProcessPortal;
let admin: ApiClient;
let demo: ApiClient;
let demoId: number;
let own: Array<Record<string, any>>;
let others: Array<Record<string, any>>;
let tokenCount = 0;

async function makeToken(
  client: ApiClient,
  expiresInDays = 30,
  name = `script ${++tokenCount}`,
): Promise<CreatedToken> {
  const response = await client.post('/api/auth/tokens', { name, expiresInDays });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

/** A script's request: no cookie, no Origin, the token in its Authorization header. */
function withToken(
  token: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  return new ApiClient(portal).request(method, path, {
    origin: null,
    ...options,
    headers: { Authorization: `Bearer ${token}`, ...options.headers },
  });
}
const readWith = (token: string, path: string, options?: RequestOptions) =>
  withToken(token, 'GET', path, options);

async function tokenRow(id: number) {
  const [row] = await queryDatabase<{
    tokenHash: string;
    prefix: string;
    name: string;
    revokedAt: string | null;
    lastUsedAt: string | null;
  }>(portal, 'SELECT tokenHash, prefix, name, revokedAt, lastUsedAt FROM api_tokens WHERE id = ?', [
    id,
  ]);
  return row;
}

const storedTokens = async () =>
  (await queryDatabase<{ count: number }>(portal, 'SELECT count(*) AS count FROM api_tokens'))[0]!
    .count;

/** A stored time as epoch ms: SQLite's `2026-11-27 00:39:28.000 +00:00` or PostgreSQL's ISO string. */
const instant = (stored: string) => Date.parse(stored.replace(' ', 'T').replace(' +00:00', 'Z'));

async function auditEntries(action: string): Promise<Array<Record<string, any>>> {
  const response = await admin.get(`/api/audit?action=${action}&limit=100`);
  expect(response.status).toBe(200);
  return response.body.data;
}

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '120',
    SANDBOX_CONTROL: 'true',
    SYNC_INTERVAL_SECONDS: '3600',
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
    API_TOKEN_RATE_PER_MINUTE: String(RATE_PER_MINUTE),
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  demoId = (await demo.get('/api/auth/profile')).body.data.user.id;
  own = await allReceipts(demo);
  const ownIds = new Set(own.map((receipt) => receipt.id));
  others = (await allReceipts(admin)).filter((receipt) => !ownIds.has(receipt.id));
  expect(own.length).toBeGreaterThan(0);
  expect(others.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await portal?.stop();
});

describe('managing tokens', () => {
  it('when a token is made, then it is answered once, only its SHA-256 is stored, and the list shows its prefix, never the token', async () => {
    const before = portal.clock.now();
    const response = await demo.post('/api/auth/tokens', {
      name: '  Stock system ',
      expiresInDays: 90,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.message).toBe('API token created. Copy it now: it is shown only once.');
    const created: CreatedToken = response.body.data;
    expect(Object.keys(created).sort()).toEqual([
      'createdAt',
      'expired',
      'expiresAt',
      'id',
      'lastUsedAt',
      'name',
      'prefix',
      'token',
    ]);
    expect(created).toMatchObject({
      name: 'Stock system',
      lastUsedAt: null,
      expired: false,
      prefix: created.token.slice(0, 11),
    });
    expect(created.token).toMatch(TOKEN_SHAPE);
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(90 * DAY_MS);
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const row = await tokenRow(created.id);
    expect(row).toMatchObject({
      tokenHash: createHash('sha256').update(created.token).digest('hex'),
      prefix: created.prefix,
      name: 'Stock system',
    });
    expect(await databaseText(portal)).not.toContain(created.token.slice(3));

    const listed = await demo.get('/api/auth/tokens');
    expect(listed.status).toBe(200);
    const { token, ...summary } = created;
    expect(listed.body.data).toContainEqual(summary);
    expect(JSON.stringify(listed.body)).not.toContain(token.slice(3));
    expect(listed.body.data.every((entry: object) => !('token' in entry))).toBe(true);
  });

  it("when the name or expiry is wrong, then 400 in the request's language and nothing is written", async () => {
    const before = await storedTokens();
    expectError(
      await demo.post('/api/auth/tokens', { name: ' ', expiresInDays: 30 }),
      400,
      'VALIDATION_ERROR',
      'Give the token a name.',
    );
    expectError(
      await demo.post('/api/auth/tokens', { name: 'x', expiresInDays: 45 }),
      400,
      'VALIDATION_ERROR',
      'Choose an expiry of one of these numbers of days: 30, 90, 365.',
    );
    expectError(
      await demo.post(
        '/api/auth/tokens',
        { name: 'x'.repeat(61), expiresInDays: 30 },
        { headers: DUTCH },
      ),
      400,
      'VALIDATION_ERROR',
      'De naam mag hoogstens 60 tekens lang zijn.',
    );
    expectError(
      await demo.post('/api/auth/tokens', undefined, {
        body: 'name=x',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await new ApiClient(portal).post('/api/auth/tokens', { name: 'x', expiresInDays: 30 }),
      401,
      'AUTHENTICATION_ERROR',
    );
    expect(await storedTokens()).toBe(before);
  });

  it("when a token is revoked, then it stops working and leaves the list; another user's token, or one revoked already, is a 404", async () => {
    const created = await makeToken(demo);
    expect((await readWith(created.token, '/api/receipts/stats')).status).toBe(200);
    const stranger = await signIn(portal, await createUser(admin, 'tokenstranger'));
    expectError(
      await stranger.delete(`/api/auth/tokens/${created.id}`),
      404,
      'NOT_FOUND',
      'That API token was not found.',
    );
    expectError(await demo.delete('/api/auth/tokens/abc'), 404, 'NOT_FOUND');

    const revoked = await demo.delete(`/api/auth/tokens/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      success: true,
      message: 'The API token has been revoked.',
    });
    expect((await tokenRow(created.id))!.revokedAt).not.toBeNull();
    expect(
      (await demo.get('/api/auth/tokens')).body.data.map((entry: CreatedToken) => entry.id),
    ).not.toContain(created.id);
    expectError(await demo.delete(`/api/auth/tokens/${created.id}`), 404, 'NOT_FOUND');
    expectError(
      await readWith(created.token, '/api/receipts/stats'),
      401,
      'AUTHENTICATION_ERROR',
      REVOKED,
    );
  });

  it('when a user has 20 working tokens, then the 21st is refused with 409 until one is revoked', async () => {
    const user = await signIn(portal, await createUser(admin, 'tokenhoarder'));
    const made = [];
    for (let index = 0; index < 20; index += 1)
      made.push(await makeToken(user, 30, `system ${index}`));
    expectError(
      await user.post('/api/auth/tokens', { name: 'one more', expiresInDays: 30 }),
      409,
      'CONFLICT',
      'You already have 20 working API tokens, the most allowed. Revoke one you no longer use first.',
    );
    expect((await user.delete(`/api/auth/tokens/${made[0]!.id}`)).status).toBe(200);
    await makeToken(user, 30, 'one more');
  });

  it('when tokens are made and revoked, then the audit trail names the owner and the prefix, never the token', async () => {
    const created = await makeToken(demo, 365, 'Audited');
    expect((await demo.delete(`/api/auth/tokens/${created.id}`)).status).toBe(200);
    const made = (await auditEntries('api-token.created')).find((entry) =>
      entry.detail?.includes(created.prefix),
    );
    expect(made).toMatchObject({
      actorName: 'demo',
      target: 'user demo',
      detail: `Token starts with: "${created.prefix}"; Name: "Audited"; Valid for (days): 365`,
    });
    const ended = (await auditEntries('api-token.revoked')).find((entry) =>
      entry.detail?.includes(created.prefix),
    );
    expect(ended).toMatchObject({
      actorName: 'demo',
      target: 'user demo',
      detail: `Token starts with: "${created.prefix}"; Name: "Audited"`,
    });
    expect(JSON.stringify(await auditEntries('api-token.created'))).not.toContain(
      created.token.slice(3),
    );
  });

  it('when a token asks to list, make or revoke tokens, then it is refused: only a session manages tokens', async () => {
    const created = await makeToken(demo);
    expectError(await readWith(created.token, '/api/auth/tokens'), 403, 'FORBIDDEN', ROUTE_REFUSED);
    expectError(
      await withToken(created.token, 'POST', '/api/auth/tokens', {
        json: { name: 'x', expiresInDays: 30 },
      }),
      403,
      'FORBIDDEN',
      ROUTE_REFUSED,
    );
    expectError(
      await withToken(created.token, 'DELETE', `/api/auth/tokens/${created.id}`),
      403,
      'FORBIDDEN',
      ROUTE_REFUSED,
    );
    expect((await tokenRow(created.id))!.revokedAt).toBeNull();
  });
});

describe('reading with a token', () => {
  it("when a token reads the list, a receipt with its history, the stats, the CSV export and tracking, then it gets what its owner's session gets", async () => {
    const { id, token } = await makeToken(demo);
    const listed = await readWith(token, '/api/receipts?limit=100&sortBy=number&sortOrder=asc');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const session = await demo.get('/api/receipts?limit=100&sortBy=number&sortOrder=asc');
    expect(listed.body.data).toEqual(session.body.data);
    expect(listed.body.pagination.totalItems).toBe(own.length);

    const receipt = own[0]!;
    const detail = await readWith(token, `/api/receipts/${receipt.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toEqual((await demo.get(`/api/receipts/${receipt.id}`)).body.data);
    expect(detail.body.data.history.length).toBeGreaterThan(0);

    const stats = await readWith(token, '/api/receipts/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.data).toEqual((await demo.get('/api/receipts/stats')).body.data);
    expect(stats.body.data.totalReceipts).toBe(own.length);

    const csv = await readWith(token, '/api/receipts/export.csv?sortBy=number&sortOrder=asc');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.body).toBe(
      (await demo.get('/api/receipts/export.csv?sortBy=number&sortOrder=asc')).body,
    );
    for (const row of own) expect(csv.body).toContain(row.number);

    const samples = (await new ApiClient(portal).get('/sandbox/control/samples')).body;
    const ownIds = new Set(own.map((entry) => entry.id));
    const scanned = samples.scannedPackages.find((entry: any) => ownIds.has(entry.receiptId));
    expect(scanned).toBeDefined();
    const path = `/api/package-tracker/search?trackingNumber=${encodeURIComponent(scanned.trackingNumber)}`;
    const tracked = await readWith(token, path);
    expect(tracked.status).toBe(200);
    expect(tracked.body.data.length).toBeGreaterThan(0);
    expect(tracked.body).toEqual((await demo.get(path)).body);

    // Each request's log line names the owner and the token's id, never the token.
    const logged = await eventually(
      () =>
        portal
          .output()
          .split('\n')
          .filter(
            (line) =>
              line.includes('"route":"/api/receipts/stats"') && line.includes(`"apiTokenId":${id}`),
          ),
      (lines) => lines.length > 0,
    );
    expect(JSON.parse(logged[0]!)).toMatchObject({ status: 200, userId: demoId, apiTokenId: id });
    expect(portal.output()).not.toContain(token.slice(3));
  });

  it("when a token asks for another consignee's receipt or package, then it is the owner's 404 and empty tracking; an admin's token sees all", async () => {
    const { token } = await makeToken(demo);
    const foreign = others[0]!;
    expectError(await readWith(token, `/api/receipts/${foreign.id}`), 404, 'NOT_FOUND');
    expectError(await readWith(token, '/api/receipts/999999999'), 404, 'NOT_FOUND');
    const samples = (await new ApiClient(portal).get('/sandbox/control/samples')).body;
    const ownIds = new Set(own.map((entry) => entry.id));
    const scanned = samples.scannedPackages.find(
      (entry: any) =>
        !ownIds.has(entry.receiptId) && others.some((receipt) => receipt.id === entry.receiptId),
    );
    const path = `/api/package-tracker/search?trackingNumber=${encodeURIComponent(scanned.trackingNumber)}`;
    expect((await readWith(token, path)).body).toEqual({ success: true, data: [] });

    const adminToken = (await makeToken(admin)).token;
    expect((await readWith(adminToken, `/api/receipts/${foreign.id}`)).status).toBe(200);
    expect((await readWith(adminToken, path)).body.data.length).toBeGreaterThan(0);
  });

  it("when a token comes with a session's cookie, then the token alone counts: the session's idle time is untouched and no cookie is set", async () => {
    const { token } = await makeToken(demo);
    const [session] = await queryDatabase<{ id: string; lastSeenAt: string }>(
      portal,
      'SELECT id, lastSeenAt FROM sessions WHERE userId = ? ORDER BY lastSeenAt DESC',
      [(await admin.get('/api/auth/profile')).body.data.user.id],
    );
    portal.clock.advance(2 * 60_000);
    // The admin's cookie, the customer's token: the customer's scope.
    const response = await readWith(token, '/api/receipts/stats', {
      headers: { Cookie: admin.cookie! },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.totalReceipts).toBe(own.length);
    expect(response.headers.getSetCookie()).toEqual([]);
    const [after] = await queryDatabase<{ lastSeenAt: string }>(
      portal,
      'SELECT lastSeenAt FROM sessions WHERE id = ?',
      [session!.id],
    );
    expect(after!.lastSeenAt).toBe(session!.lastSeenAt);
    // The same session's own request would have recorded its activity.
    expect((await admin.get('/api/auth/profile')).status).toBe(200);
    const [touched] = await queryDatabase<{ lastSeenAt: string }>(
      portal,
      'SELECT lastSeenAt FROM sessions WHERE id = ?',
      [session!.id],
    );
    expect(touched!.lastSeenAt).not.toBe(session!.lastSeenAt);
  });

  it("when a token's GET names another site as its origin, then the cross-site refusal does not stop it", async () => {
    const { token } = await makeToken(demo);
    const response = await readWith(token, '/api/receipts?limit=1', {
      origin: 'https://elsewhere.example',
    });
    expect(response.status).toBe(200);
  });

  it('when a token writes, administers or opens a page, then it is refused: 403 on the API, even for an admin, and a signed-out visitor on pages', async () => {
    const { token } = await makeToken(demo);
    const adminToken = (await makeToken(admin)).token;
    const writes: Array<[string, string, unknown?]> = [
      ['POST', `/api/receipts/${own[0]!.id}/share`],
      ['PUT', '/api/auth/profile/preferences', { statusEmails: false }],
      [
        'POST',
        '/api/auth/change-password',
        { currentPassword: DEMO_PASSWORD, newPassword: 'another-password-1' },
      ],
      ['DELETE', '/api/shares/1'],
      ['POST', '/api/auth/logout'],
      ['POST', '/api/receipts'],
      ['GET', '/api/auth/profile'],
    ];
    for (const [method, path, json] of writes) {
      expectError(
        await withToken(token, method, path, json === undefined ? {} : { json }),
        403,
        'FORBIDDEN',
        ROUTE_REFUSED,
      );
    }
    const administration: Array<[string, string, unknown?]> = [
      ['GET', '/api/auth/users'],
      ['GET', '/api/audit'],
      ['GET', '/api/audit/export'],
      ['POST', '/api/sync'],
      ['POST', '/api/consignees/import'],
      ['DELETE', `/api/auth/users/${demoId}`],
      ['DELETE', `/api/auth/users/${demoId}/tokens`],
      ['GET', '/api/tokens/status'],
    ];
    for (const [method, path, json] of administration) {
      expectError(
        await withToken(adminToken, method, path, json === undefined ? {} : { json }),
        403,
        'FORBIDDEN',
        ROUTE_REFUSED,
      );
    }
    expectError(
      await withToken(token, 'POST', '/api/auth/tokens', {
        json: { name: 'x', expiresInDays: 30 },
        headers: DUTCH,
      }),
      403,
      'FORBIDDEN',
      'Met een API-token kunt u alleen ontvangstbewijzen, trackinggegevens en vooraanmeldingen lezen. Log in op het portaal voor al het andere.',
    );
    // Nothing happened: no share link, the password and the user are as they were.
    expect(
      await queryDatabase(portal, 'SELECT id FROM share_links WHERE userId = ?', [demoId]),
    ).toEqual([]);
    expect(
      (await signIn(portal, { username: 'demo', password: DEMO_PASSWORD })).cookie,
    ).toBeDefined();

    for (const [bearer, path] of [
      [token, '/receipts'],
      [token, '/profile'],
      [token, `/receipts/${own[0]!.id}`],
      [adminToken, '/admin/users'],
      [adminToken, '/dashboard'],
    ] as const) {
      const page = await readWith(bearer, path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get('location'), path).toBe('/login');
    }
    expectError(await readWith(token, '/api/no-such-thing'), 404, 'NOT_FOUND');
  });

  it("when a token is unknown or malformed, then 401 says so, which differs from not being signed in, in the request's language", async () => {
    expectError(
      await readWith(`fp_${'0'.repeat(43)}`, '/api/receipts'),
      401,
      'AUTHENTICATION_ERROR',
      INVALID,
    );
    expectError(
      await readWith('not-a-token', '/api/receipts'),
      401,
      'AUTHENTICATION_ERROR',
      INVALID,
    );
    expectError(
      await new ApiClient(portal).get('/api/receipts', { headers: { Authorization: 'Bearer' } }),
      401,
      'AUTHENTICATION_ERROR',
      INVALID,
    );
    expectError(
      await readWith(`fp_${'0'.repeat(43)}`, '/api/receipts', { headers: DUTCH }),
      401,
      'AUTHENTICATION_ERROR',
      /^Dit API-token is niet geldig/,
    );
    expectError(
      await new ApiClient(portal).get('/api/receipts'),
      401,
      'AUTHENTICATION_ERROR',
      'Authentication required',
    );
  });
});

describe('public reads with a token', () => {
  it('when a token (working or not) is sent to the OpenAPI document or the health check, then it is left unread: 200, as for anyone', async () => {
    const { token } = await makeToken(demo);
    for (const credential of [token, `fp_${'0'.repeat(43)}`]) {
      const document = await readWith(credential, '/api/openapi.json');
      expect(document.status, JSON.stringify(document.body).slice(0, 200)).toBe(200);
      const setup = document.body.paths['/api/auth/2fa/setup'].post;
      expect(setup.description).toContain('pending cookie');
      expect((await readWith(credential, '/api/health')).status).toBe(200);
    }
    // Elsewhere a token is still the caller's, and refused off its routes.
    expectError(await readWith(token, '/api/auth/users'), 403, 'FORBIDDEN', ROUTE_REFUSED);
  });
});

describe("each token's rate limit", () => {
  it(`when a token makes more than ${RATE_PER_MINUTE} requests in a minute, then 429 with Retry-After; another token is unaffected; the next window opens when the clock moves`, async () => {
    const busy = await makeToken(demo);
    const calm = await makeToken(demo);
    for (let request = 0; request < RATE_PER_MINUTE; request += 1)
      expect((await readWith(busy.token, '/api/receipts/stats')).status).toBe(200);
    const limited = await readWith(busy.token, '/api/receipts/stats');
    expectError(
      limited,
      429,
      'RATE_LIMITED',
      new RegExp(
        `^This API token made more than ${RATE_PER_MINUTE} requests in a minute\\. Try again in \\d+ seconds\\.$`,
      ),
    );
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.retryAfter).toBe(retryAfter);
    expect((await readWith(calm.token, '/api/receipts/stats')).status).toBe(200);

    portal.clock.advance(61_000);
    expect((await readWith(busy.token, '/api/receipts/stats')).status).toBe(200);
  });

  it('when a token is used, then its last use is recorded at most once a minute and listed', async () => {
    const created = await makeToken(demo);
    expect((await tokenRow(created.id))!.lastUsedAt).toBeNull();
    expect((await readWith(created.token, '/api/receipts/stats')).status).toBe(200);
    const first = (await tokenRow(created.id))!.lastUsedAt;
    expect(first).not.toBeNull();
    portal.clock.advance(20_000);
    expect((await readWith(created.token, '/api/receipts/stats')).status).toBe(200);
    expect((await tokenRow(created.id))!.lastUsedAt).toBe(first);
    portal.clock.advance(45_000);
    expect((await readWith(created.token, '/api/receipts/stats')).status).toBe(200);
    const second = (await tokenRow(created.id))!.lastUsedAt;
    expect(instant(second!)).toBeGreaterThan(instant(first!));
    const listed = (await demo.get('/api/auth/tokens')).body.data.find(
      (entry: CreatedToken) => entry.id === created.id,
    );
    expect(Math.abs(Date.parse(listed.lastUsedAt) - portal.clock.now())).toBeLessThan(5_000);
  });

  it('when two portals serve one database, then they count one token together', async () => {
    const second = await startInProcessPortal(
      {
        DATABASE_URL: portal.databaseUrl,
        PROVIDER: 'http',
        PROVIDER_URL: 'http://127.0.0.1:9',
        API_TOKEN_RATE_PER_MINUTE: String(RATE_PER_MINUTE),
      },
      { background: false },
    );
    try {
      // Both portals at the same moment of time.
      second.clock.advance(portal.clock.now() - second.clock.now());
      const { token } = await makeToken(demo);
      for (let request = 0; request < RATE_PER_MINUTE; request += 1) {
        const serving = request % 2 === 0 ? portal : second;
        const response = await new ApiClient(serving).get('/api/receipts/stats', {
          origin: null,
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(response.status, JSON.stringify(response.body)).not.toBe(429);
      }
      expectError(
        await new ApiClient(second).get('/api/receipts?limit=1', {
          origin: null,
          headers: { Authorization: `Bearer ${token}` },
        }),
        429,
        'RATE_LIMITED',
      );
      expectError(await readWith(token, '/api/receipts?limit=1'), 429, 'RATE_LIMITED');
    } finally {
      await second.stop();
    }
  });
});

describe('ending tokens with the account, and by an admin', () => {
  async function customerWithToken(
    name: string,
  ): Promise<{ user: TestUser; client: ApiClient; token: CreatedToken }> {
    const user = await createUser(admin, name);
    const client = await signIn(portal, user);
    return { user, client, token: await makeToken(client) };
  }

  const editOf = (user: TestUser, isActive: boolean) => ({
    username: user.username,
    fullName: `${user.username} name`,
    email: `${user.username}@example.com`,
    role: user.role,
    isActive,
  });

  it("when an admin disables the user, then the user's tokens are revoked, and enabling the user again does not bring them back", async () => {
    const { user, token } = await customerWithToken('tokendisabled');
    expect((await readWith(token.token, '/api/receipts/stats')).status).toBe(200);
    expect((await admin.put(`/api/auth/users/${user.id}`, editOf(user, false))).status).toBe(200);
    expectError(
      await readWith(token.token, '/api/receipts/stats'),
      401,
      'AUTHENTICATION_ERROR',
      REVOKED,
    );
    expect((await tokenRow(token.id))!.revokedAt).not.toBeNull();
    const entry = (await auditEntries('api-tokens.revoked')).find(
      (candidate) => candidate.target === `user ${user.username}`,
    );
    expect(entry).toMatchObject({
      actorName: 'admin',
      detail: 'Number: 1; Reason: account disabled',
    });

    expect((await admin.put(`/api/auth/users/${user.id}`, editOf(user, true))).status).toBe(200);
    expectError(
      await readWith(token.token, '/api/receipts/stats'),
      401,
      'AUTHENTICATION_ERROR',
      REVOKED,
    );
  });

  it("when an admin deletes the user, then the user's tokens are gone", async () => {
    const { user, token } = await customerWithToken('tokendeleted');
    expect((await admin.delete(`/api/auth/users/${user.id}`)).status).toBe(200);
    expect(
      await queryDatabase(portal, 'SELECT id FROM api_tokens WHERE userId = ?', [user.id]),
    ).toEqual([]);
    expectError(
      await readWith(token.token, '/api/receipts/stats'),
      401,
      'AUTHENTICATION_ERROR',
      INVALID,
    );
  });

  it('when the admin lists users, then each shows its working tokens; the admin alone revokes them all at once', async () => {
    const { user, client, token } = await customerWithToken('tokenrevokedall');
    const second = await makeToken(client, 365);
    const third = await makeToken(client);
    expect((await client.delete(`/api/auth/tokens/${third.id}`)).status).toBe(200);
    const countOf = async () =>
      (await admin.get('/api/auth/users')).body.data.find(
        (entry: { id: number }) => entry.id === user.id,
      ).apiTokens;
    expect(await countOf()).toBe(2);

    expectError(await demo.delete(`/api/auth/users/${user.id}/tokens`), 403, 'FORBIDDEN');
    const viewer = await signIn(
      portal,
      await createUser(admin, 'tokenadminviewer', 'admin-viewer'),
    );
    expectError(await viewer.delete(`/api/auth/users/${user.id}/tokens`), 403, 'FORBIDDEN');
    expectError(
      await admin.delete('/api/auth/users/999999/tokens'),
      404,
      'NOT_FOUND',
      'User not found',
    );

    const revoked = await admin.delete(`/api/auth/users/${user.id}/tokens`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      success: true,
      data: { revoked: 2 },
      message: 'API tokens revoked: 2.',
    });
    expect(await countOf()).toBe(0);
    for (const { token: value } of [token, second])
      expectError(
        await readWith(value, '/api/receipts/stats'),
        401,
        'AUTHENTICATION_ERROR',
        REVOKED,
      );
    expect((await client.get('/api/auth/tokens')).body.data).toEqual([]);
    const entry = (await auditEntries('api-tokens.revoked')).find(
      (candidate) => candidate.target === `user ${user.username}`,
    );
    expect(entry).toMatchObject({ actorName: 'admin', detail: 'Number: 2; Reason: by an admin' });
  });
});

describe('expiry', () => {
  it('when a token is past its expiry, then 401 says when it expired and the list marks it; a longer one still works; a month on, it is gone', async () => {
    const short = await makeToken(demo, 30);
    const long = await makeToken(demo, 90);
    expect((await readWith(short.token, '/api/receipts/stats')).status).toBe(200);
    portal.clock.advance(30 * DAY_MS + 60_000);

    expectError(
      await readWith(short.token, '/api/receipts/stats'),
      401,
      'AUTHENTICATION_ERROR',
      /^This API token expired on .+\. Create a new one in Profile Settings\.$/,
    );
    expectError(
      await readWith(short.token, '/api/receipts/stats', { headers: DUTCH }),
      401,
      'AUTHENTICATION_ERROR',
      /^Dit API-token is verlopen op /,
    );
    expect((await readWith(long.token, '/api/receipts/stats')).status).toBe(200);
    // The sessions have expired meanwhile.
    demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
    const listed = (await demo.get('/api/auth/tokens')).body.data;
    expect(listed.find((entry: CreatedToken) => entry.id === short.id)).toMatchObject({
      expired: true,
    });
    expect(listed.find((entry: CreatedToken) => entry.id === long.id)).toMatchObject({
      expired: false,
    });

    portal.clock.advance(31 * DAY_MS);
    await portal.portal.keepHouse();
    expect(await tokenRow(short.id)).toBeUndefined();
    expectError(
      await readWith(short.token, '/api/receipts/stats'),
      401,
      'AUTHENTICATION_ERROR',
      INVALID,
    );
  });

  it('when the metrics are read, then token requests are counted by outcome', async () => {
    const { text } = await portal.portal.metrics.exposition();
    for (const outcome of ['accepted', 'refused', 'limited'])
      expect(text).toMatch(
        new RegExp(`^portal_api_token_requests_total\\{outcome="${outcome}"\\} [1-9]`, 'm'),
      );
  });
});
