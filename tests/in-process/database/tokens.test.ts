/**
 * Provider tokens: GET /api/tokens/status|info|oauth/config,
 * POST /api/tokens/update|refresh|oauth/authorize, DELETE /api/tokens/clear and the OAuth2 callback
 * page, driven over real HTTP against the portal's sandbox provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import {
  createUser,
  databaseText,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  databaseDate,
  waitForMirror,
  writeDatabase,
} from '../../support/api-steps';
import {
  connect,
  control,
  decide,
  sandboxGet,
  tokenRequest,
  CLIENT_ID,
} from '../../support/sandbox-steps';

const STATUS_FIELDS = [
  'accessTokenExpiresInMinutes',
  'accessTokenExpiry',
  'canRefresh',
  'hasAccessToken',
  'hasRefreshToken',
  'isAccessTokenExpired',
  'isRefreshTokenExpired',
  'isRefreshing',
  'lastUpdated',
  'reconnectReason',
  'reconnectRequired',
  'refreshTokenExpiresInMinutes',
  'refreshTokenExpiry',
  'source',
];

/** A JWT anywhere (header and payload both start with `{"`), and the sandbox's refresh token shape. */
const JWT_SHAPE = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;
const REFRESH_SHAPE = /[\w-]{43}\.[0-9a-z]{5,8}\.[\w-]{43}/;

let portal: InProcessPortal;
let admin: ApiClient;
let viewerClient: ApiClient;
let adminViewerClient: ApiClient;
let anonymous: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_CONTROL: 'true',
    SANDBOX_RECEIPTS: '80',
    LOGIN_MAX_ATTEMPTS: '1000',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  viewerClient = await signIn(portal, await createUser(admin, 'tokenviewer', 'viewer'));
  adminViewerClient = await signIn(
    portal,
    await createUser(admin, 'tokenadminviewer', 'admin-viewer'),
  );
  anonymous = new ApiClient(portal);
});

afterAll(async () => {
  await portal?.stop();
});

/** Every known token value and anything shaped like a token is absent from `text`. */
function expectNoTokens(text: string, known: string[] = []): void {
  for (const value of known) expect(text.includes(value), 'a known token value leaked').toBe(false);
  expect(text).not.toMatch(JWT_SHAPE);
  expect(text).not.toMatch(REFRESH_SHAPE);
}

async function status(client = admin): Promise<Record<string, any>> {
  const response = await client.get('/api/tokens/status');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

/** What a write would change (the minutes left move by themselves). */
async function storedState() {
  const { hasAccessToken, hasRefreshToken, source, lastUpdated } = await status();
  return { hasAccessToken, hasRefreshToken, source, lastUpdated };
}

async function updateTokens(payload: Record<string, unknown>) {
  return admin.post('/api/tokens/update', payload);
}

/** An unsigned JWT with this `exp`: the portal only reads it, the provider would refuse it. */
function unsignedJwt(exp: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'manual', exp })}.c2lnbmF0dXJl`;
}

/** The admin starts the OAuth2 flow and decides on the sandbox's consent page; resolves with the callback path. */
async function consent(client: ApiClient, decision: 'authorize' | 'deny'): Promise<string> {
  const started = await client.post('/api/tokens/oauth/authorize');
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const authorizationUrl = new URL(started.body.data.authorizationUrl);
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  const response = await decide(portal, authorizationUrl.searchParams, decision);
  expect(response.status).toBe(302);
  const callback = new URL(response.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(`${portal.url}/admin/tokens/callback`);
  return callback.pathname + callback.search;
}

/** The message the callback page posts to its opener, read from the page. */
function outcomeOf(html: string): Record<string, any> {
  const match = /data-oauth-outcome="([^"]*)"/.exec(html);
  if (!match) throw new Error(`no outcome on the page:\n${html.slice(0, 500)}`);
  const json = match[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(json);
}

async function pendingAuthorizations(): Promise<number> {
  const [row] = await queryDatabase<{ count: number }>(
    portal,
    'SELECT COUNT(*) AS count FROM oauth_authorizations',
  );
  return row!.count;
}

/** Puts working tokens back through the OAuth2 flow, as an admin would. */
async function reconnect(): Promise<void> {
  const response = await admin.get(await consent(admin, 'authorize'));
  expect(response.status, String(response.body).slice(0, 300)).toBe(200);
}

describe('access', () => {
  const CALLS: Array<[method: 'get' | 'post' | 'delete', path: string, body?: unknown]> = [
    ['get', '/api/tokens/status'],
    ['get', '/api/tokens/info'],
    ['post', '/api/tokens/update', { accessToken: 'a', refreshToken: 'r' }],
    ['post', '/api/tokens/refresh'],
    ['delete', '/api/tokens/clear'],
    ['get', '/api/tokens/oauth/config'],
    ['post', '/api/tokens/oauth/authorize'],
  ];

  it.each(CALLS)('when nobody is signed in, then %s %s is 401', async (method, callPath, body) => {
    const response =
      method === 'post' ? await anonymous.post(callPath, body) : await anonymous[method](callPath);
    expectError(response, 401, 'AUTHENTICATION_ERROR');
  });

  it.each(CALLS)(
    'when a viewer or an admin-viewer calls %s %s, then it is 403 and nothing changes',
    async (method, callPath, body) => {
      const before = await storedState();
      for (const client of [viewerClient, adminViewerClient]) {
        const response =
          method === 'post' ? await client.post(callPath, body) : await client[method](callPath);
        expectError(response, 403, 'FORBIDDEN');
      }
      expect(await storedState()).toEqual(before);
    },
  );

  it('when a non-admin opens the callback page, then they are sent away before any exchange', async () => {
    const callback = '/admin/tokens/callback?code=x&state=y';
    expect((await anonymous.get(callback)).headers.get('location')).toBe('/login');
    for (const client of [viewerClient, adminViewerClient]) {
      const response = await client.get(callback);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/dashboard');
    }
  });
});

describe('status, info and OAuth2 config', () => {
  it('when the portal has connected itself to the sandbox, then the status has every TokenStatus field and says valid', async () => {
    const data = await status();
    expect(Object.keys(data).sort()).toEqual(STATUS_FIELDS);
    expect(data).toMatchObject({
      hasAccessToken: true,
      hasRefreshToken: true,
      isAccessTokenExpired: false,
      isRefreshTokenExpired: false,
      canRefresh: true,
      isRefreshing: false,
      source: 'sandbox',
      reconnectRequired: false,
      reconnectReason: null,
    });
    expect(Date.parse(data.accessTokenExpiry) - Date.now()).toBeGreaterThan(50 * 60_000);
    expect(data.accessTokenExpiresInMinutes).toBeGreaterThanOrEqual(50);
    expect(data.accessTokenExpiresInMinutes).toBeLessThanOrEqual(60);
    expect(data.refreshTokenExpiresInMinutes).toBeGreaterThan(29 * 24 * 60);
    expect(Number.isNaN(Date.parse(data.lastUpdated))).toBe(false);
  });

  it('when the admin asks for the info, then it names the provider, the redirect URI and the refresh rule', async () => {
    const response = await admin.get('/api/tokens/info');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      provider: 'sandbox',
      providerUrl: `${portal.url}/sandbox`,
      redirectUri: `${portal.url}/admin/tokens/callback`,
      autoRefreshMinutesBeforeExpiry: 5,
      source: expect.any(String),
      lastUpdated: expect.any(String),
    });
  });

  it("when the admin asks for the OAuth2 config, then it describes the public PKCE client without a secret, with the endpoints the sandbox's metadata names", async () => {
    const response = await admin.get('/api/tokens/oauth/config');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      issuer: `${portal.url}/sandbox`,
      clientId: CLIENT_ID,
      clientType: 'public',
      tokenEndpointAuthMethod: 'none',
      authorizationUrl: `${portal.url}/sandbox/oauth/authorize`,
      tokenUrl: `${portal.url}/sandbox/oauth/token`,
      revocationUrl: `${portal.url}/sandbox/oauth/revoke`,
      redirectUri: `${portal.url}/admin/tokens/callback`,
      scope: 'receipts',
      codeChallengeMethod: 'S256',
    });
    expect(JSON.stringify(response.body)).not.toMatch(/secret/i);
  });
});

describe('manual update', () => {
  it.each([
    [{}, 'Both access token and refresh token are required'],
    [{ accessToken: 'a' }, 'Both access token and refresh token are required'],
    [{ accessToken: '   ', refreshToken: 'r' }, 'Both access token and refresh token are required'],
    [
      { accessToken: 'a', refreshToken: ' \n ' },
      'Both access token and refresh token are required',
    ],
    [
      { accessToken: 'a', refreshToken: 'r', refreshTokenExpirySeconds: 0 },
      'Refresh token expiry must be a positive number',
    ],
    [
      { accessToken: 'a', refreshToken: 'r', refreshTokenExpirySeconds: -600 },
      'Refresh token expiry must be a positive number',
    ],
    [
      { accessToken: 'a', refreshToken: 'r', refreshTokenExpirySeconds: 'soon' },
      'Refresh token expiry must be a positive number',
    ],
    [
      { accessToken: 'a', refreshToken: 'r', refreshTokenExpiry: 3600.5 },
      'Refresh token expiry must be a positive number',
    ],
    [
      { accessToken: 'a', refreshToken: 'r', refreshTokenExpirySeconds: 299 },
      'Refresh token expiry must be between 300 and 31536000 seconds',
    ],
    [
      { accessToken: 'a', refreshToken: 'r', refreshTokenExpiry: 31_536_001 },
      'Refresh token expiry must be between 300 and 31536000 seconds',
    ],
  ])(
    'when the payload is %j, then 400 "%s" and the stored tokens stay',
    async (payload, message) => {
      const before = await status();
      expectError(await updateTokens(payload), 400, 'VALIDATION_ERROR', message);
      expect((await status()).lastUpdated).toBe(before.lastUpdated);
    },
  );

  it('when the body is not JSON, then it is refused with a clear message', async () => {
    const response = await admin.post('/api/tokens/update', undefined, {
      body: 'accessToken=a&refreshToken=r',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectError(response, 415, 'VALIDATION_ERROR', 'Content-Type must be application/json');
  });

  it('when working tokens are entered with an expiry, then they are stored as manual, the JWT expiry is read, and the provider answers with them', async () => {
    const pair = await connect(portal);
    const response = await updateTokens({
      accessToken: `  ${pair.accessToken}\n`,
      refreshToken: pair.refreshToken,
      refreshTokenExpirySeconds: 86_400,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe('Tokens updated successfully');
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(STATUS_FIELDS);
    const exp = JSON.parse(
      Buffer.from(pair.accessToken.split('.')[1]!, 'base64url').toString(),
    ).exp;
    expect(data).toMatchObject({
      source: 'manual',
      hasAccessToken: true,
      hasRefreshToken: true,
      canRefresh: true,
      accessTokenExpiry: new Date(exp * 1000).toISOString(),
    });
    expect(Math.abs(Date.parse(data.refreshTokenExpiry) - (Date.now() + 86_400_000))).toBeLessThan(
      60_000,
    );
    expect(data.refreshTokenExpiresInMinutes).toBeGreaterThanOrEqual(1438);
    expect(data.refreshTokenExpiresInMinutes).toBeLessThanOrEqual(1440);
    expectNoTokens(JSON.stringify(response.body), [pair.accessToken, pair.refreshToken]);

    const { trackingNumbersWithoutReceipt } = (await control(portal, 'samples')).body;
    const search = await admin.get(
      `/api/package-tracker/search?trackingNumber=${encodeURIComponent(trackingNumbersWithoutReceipt[0])}`,
    );
    expect(search.status, JSON.stringify(search.body)).toBe(200);
  });

  it('when the expiry comes as refreshTokenExpiry, then it is used like refreshTokenExpirySeconds', async () => {
    const response = await updateTokens({
      accessToken: 'opaque-access',
      refreshToken: 'opaque-refresh',
      refreshTokenExpiry: 300,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.refreshTokenExpiresInMinutes).toBeGreaterThanOrEqual(4);
    expect(response.body.data.refreshTokenExpiresInMinutes).toBeLessThanOrEqual(5);
    await reconnect();
  });

  it('when the access token is opaque and no expiry is given, then both expiries are unknown and the tokens still count as valid', async () => {
    const response = await updateTokens({
      accessToken: 'opaque-access-token',
      refreshToken: 'opaque-refresh-token',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      hasAccessToken: true,
      isAccessTokenExpired: false,
      accessTokenExpiry: null,
      accessTokenExpiresInMinutes: null,
      hasRefreshToken: true,
      isRefreshTokenExpired: false,
      refreshTokenExpiry: null,
      refreshTokenExpiresInMinutes: null,
      canRefresh: true,
      source: 'manual',
    });
    await reconnect();
  });

  it('when the access token is a JWT that has expired, then the status says expired with 0 minutes left', async () => {
    const response = await updateTokens({
      accessToken: unsignedJwt(Math.floor(Date.now() / 1000) - 120),
      refreshToken: 'opaque-refresh-token',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      isAccessTokenExpired: true,
      accessTokenExpiresInMinutes: 0,
    });
    await reconnect();
  });
});

describe('refresh', () => {
  it('when the stored refresh token is good, then the tokens are refreshed and the refresh token rotates', async () => {
    const pair = await connect(portal);
    await updateTokens({ ...pair, refreshTokenExpirySeconds: 86_400 });
    const before = await status();
    portal.clock.advance(1_100);

    const response = await admin.post('/api/tokens/refresh');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe('Token refreshed successfully');
    expect(response.body.data).toMatchObject({
      hasAccessToken: true,
      hasRefreshToken: true,
      canRefresh: true,
      isRefreshing: false,
      source: 'manual',
    });
    expect(Date.parse(response.body.data.lastUpdated)).toBeGreaterThan(
      Date.parse(before.lastUpdated),
    );
    expect(Date.parse(response.body.data.accessTokenExpiry)).toBeGreaterThan(
      Date.parse(before.accessTokenExpiry),
    );
    expectNoTokens(JSON.stringify(response.body), [pair.accessToken, pair.refreshToken]);

    // The entered refresh token was spent by the portal: the provider refuses it now.
    const replay = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: pair.refreshToken,
      client_id: CLIENT_ID,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // The rotated one the portal stored works for the next refresh.
    expect((await admin.post('/api/tokens/refresh')).status).toBe(200);
  });

  it('when the provider refuses the refresh token, then 502 says so, the tokens stay, reconnect is required and no refresh is tried again until new tokens come', async () => {
    await updateTokens({
      accessToken: 'opaque-access',
      refreshToken: 'not-a-refresh-token-of-this-provider',
    });
    const before = await status();
    const response = await admin.post('/api/tokens/refresh');
    expectError(
      response,
      502,
      'EXTERNAL_API_ERROR',
      /^The provider refused the refresh token: The refresh token is invalid, expired or already used\./,
    );
    const after = await status();
    expect(after.lastUpdated).toBe(before.lastUpdated);
    expect(after).toMatchObject({
      hasRefreshToken: true,
      canRefresh: false,
      reconnectRequired: true,
      reconnectReason: 'The refresh token is invalid, expired or already used',
    });
    expectError(
      await admin.post('/api/tokens/refresh'),
      409,
      'CONFLICT',
      'The provider no longer accepts the stored refresh token. Reconnect with the OAuth2 flow or enter new tokens manually.',
    );

    await reconnect();
    expect(await status()).toMatchObject({
      canRefresh: true,
      reconnectRequired: false,
      reconnectReason: null,
    });
  });

  it('when the refresh token has expired, then 409 says so and the status shows it expired', async () => {
    await updateTokens({
      accessToken: 'opaque-access',
      refreshToken: 'opaque-refresh',
      refreshTokenExpirySeconds: 300,
    });
    expect(
      await writeDatabase(portal, 'UPDATE provider_tokens SET refreshTokenExpiresAt = ?', [
        databaseDate(new Date(Date.now() - 60_000)),
      ]),
    ).toBe(1);
    expectError(
      await admin.post('/api/tokens/refresh'),
      409,
      'CONFLICT',
      'The refresh token has expired. Use the OAuth2 flow or enter new tokens manually.',
    );
    expect(await status()).toMatchObject({
      hasRefreshToken: true,
      isRefreshTokenExpired: true,
      refreshTokenExpiresInMinutes: 0,
      canRefresh: false,
    });
    await reconnect();
  });
});

describe('clear', () => {
  it('when the admin clears the tokens, then the provider revokes them, the status is empty, refresh is refused and receipts are still served from the mirror', async () => {
    const pair = await connect(portal);
    expect((await updateTokens(pair)).status).toBe(200);
    const response = await admin.delete('/api/tokens/clear');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { revoked: true, revocationError: null },
      message: 'All tokens cleared successfully',
    });
    // Revoked: both are dead at the provider.
    expect(
      (
        await tokenRequest(portal, {
          grant_type: 'refresh_token',
          refresh_token: pair.refreshToken,
          client_id: CLIENT_ID,
        })
      ).body.error,
    ).toBe('invalid_grant');
    expect((await sandboxGet(portal, '/v1/consignees', pair.accessToken)).status).toBe(401);
    expect(await status()).toEqual({
      hasAccessToken: false,
      hasRefreshToken: false,
      isAccessTokenExpired: false,
      isRefreshTokenExpired: false,
      accessTokenExpiry: null,
      refreshTokenExpiry: null,
      accessTokenExpiresInMinutes: null,
      refreshTokenExpiresInMinutes: null,
      canRefresh: false,
      isRefreshing: false,
      source: null,
      lastUpdated: null,
      reconnectRequired: false,
      reconnectReason: null,
    });
    expect(await queryDatabase(portal, 'SELECT * FROM provider_tokens')).toEqual([]);
    expectError(
      await admin.post('/api/tokens/refresh'),
      409,
      'CONFLICT',
      'No refresh token is stored. Use the OAuth2 flow or enter the tokens manually.',
    );

    const receipts = await admin.get('/api/receipts?limit=5');
    expect(receipts.status).toBe(200);
    expect(receipts.body.data.length).toBe(5);
    expect((await viewerClient.get('/api/receipts?limit=5')).status).toBe(200);

    // Clearing twice is no error.
    expect((await admin.delete('/api/tokens/clear')).body.data).toEqual({
      revoked: false,
      revocationError: null,
    });
    await reconnect();
    expect(await status()).toMatchObject({ hasAccessToken: true, source: 'oauth2' });
  });
});

describe('OAuth2 authorization code flow', () => {
  beforeEach(async () => {
    expect((await status()).hasRefreshToken).toBe(true);
  });

  it('when the admin starts the flow, then only an authorization URL comes back, with PKCE S256 and a fresh state each time', async () => {
    const first = await admin.post('/api/tokens/oauth/authorize');
    const second = await admin.post('/api/tokens/oauth/authorize');
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(Object.keys(response.body.data)).toEqual(['authorizationUrl']);
    }
    const [a, b] = [first, second].map((response) => new URL(response.body.data.authorizationUrl));
    expect(a!.origin + a!.pathname).toBe(`${portal.url}/sandbox/oauth/authorize`);
    expect(Object.fromEntries(a!.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${portal.url}/admin/tokens/callback`,
      scope: 'receipts',
      code_challenge_method: 'S256',
    });
    expect(a!.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(a!.searchParams.get('state')).not.toBe(b!.searchParams.get('state'));
    expect(a!.searchParams.get('code_challenge')).not.toBe(b!.searchParams.get('code_challenge'));

    // Stored by the state's hash, with the verifier encrypted: neither the state nor a verifier in clear.
    const rows = await queryDatabase<{ id: string; codeVerifier: string; sessionId: string }>(
      portal,
      'SELECT id, codeVerifier, sessionId FROM oauth_authorizations',
    );
    const states = [a!, b!].map((url) => url.searchParams.get('state')!);
    for (const row of rows) {
      expect(states).not.toContain(row.id);
      expect(row.codeVerifier).toMatch(/^v1\./);
    }
    const text = await databaseText(portal);
    for (const state of states) expect(text.includes(state)).toBe(false);
  });

  it('when the admin authorizes at the provider, then the callback stores the tokens as oauth2 and tells the opener without a token', async () => {
    const before = await status();
    const callback = await consent(admin, 'authorize');
    const pending = await pendingAuthorizations();
    const response = await admin.get(callback);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html: string = response.body;
    expect(html).toContain('OAuth2 tokens acquired and stored successfully!');
    expect(html).toContain(`data-portal-origin="${portal.url}"`);
    const outcome = outcomeOf(html);
    expect(outcome.type).toBe('oauth2_success');
    expect(outcome.data).toMatchObject({
      source: 'oauth2',
      accessTokenExpiry: expect.any(String),
      refreshTokenExpiry: expect.any(String),
    });
    expectNoTokens(html);

    const after = await status();
    expect(after).toMatchObject({
      source: 'oauth2',
      hasAccessToken: true,
      hasRefreshToken: true,
      isAccessTokenExpired: false,
      canRefresh: true,
    });
    expect(Date.parse(after.lastUpdated)).toBeGreaterThanOrEqual(Date.parse(before.lastUpdated));
    expect(await pendingAuthorizations()).toBe(pending - 1);
  });

  it('when the callback is replayed, then the used state is refused and the tokens stay', async () => {
    const callback = await consent(admin, 'authorize');
    expect((await admin.get(callback)).status).toBe(200);
    const before = await status();

    const replay = await admin.get(callback);
    expect(replay.status).toBe(400);
    expect(outcomeOf(replay.body)).toMatchObject({ type: 'oauth2_error', error: 'invalid_state' });
    expect(replay.body).toContain(
      'OAuth2 authorization failed: This authorization is unknown, expired, already used or was started in another session.',
    );
    expect((await status()).lastUpdated).toBe(before.lastUpdated);
  });

  it('when the state is forged or missing, then the callback refuses it without asking the provider', async () => {
    const before = await status();
    for (const query of [
      '?code=forged-code&state=forged-state',
      '?code=forged-code',
      '?state=&code=x',
      '',
    ]) {
      const response = await admin.get(`/admin/tokens/callback${query}`);
      expect(response.status).toBe(400);
      expect(outcomeOf(response.body)).toMatchObject({
        type: 'oauth2_error',
        error: 'invalid_state',
      });
      expectNoTokens(response.body);
    }
    expect((await status()).lastUpdated).toBe(before.lastUpdated);
  });

  it('when a state started in another admin session comes back, then it is refused there and still good in its own session', async () => {
    const otherSession = await signedInAdmin(portal);
    const callback = await consent(admin, 'authorize');
    const before = await status();

    const elsewhere = await otherSession.get(callback);
    expect(elsewhere.status).toBe(400);
    expect(outcomeOf(elsewhere.body)).toMatchObject({
      type: 'oauth2_error',
      error: 'invalid_state',
    });
    expect((await status()).lastUpdated).toBe(before.lastUpdated);

    const own = await admin.get(callback);
    expect(own.status).toBe(200);
    expect(outcomeOf(own.body).type).toBe('oauth2_success');
  });

  it('when the authorization has expired, then its state is refused', async () => {
    const callback = await consent(admin, 'authorize');
    expect(
      await writeDatabase(portal, 'UPDATE oauth_authorizations SET expiresAt = ?', [
        databaseDate(new Date(Date.now() - 1_000)),
      ]),
    ).toBeGreaterThan(0);
    const response = await admin.get(callback);
    expect(response.status).toBe(400);
    expect(outcomeOf(response.body)).toMatchObject({
      type: 'oauth2_error',
      error: 'invalid_state',
    });
  });

  it("when the admin denies at the provider, then the page shows the provider's reason and the tokens stay", async () => {
    const before = await storedState();
    const response = await admin.get(await consent(admin, 'deny'));
    expect(response.status).toBe(400);
    expect(outcomeOf(response.body)).toEqual({
      type: 'oauth2_error',
      error: 'access_denied',
      error_description: 'The user denied the authorization request',
    });
    expect(response.body).toContain(
      'OAuth2 authorization failed: The user denied the authorization request',
    );
    expect(await storedState()).toEqual(before);
  });

  it('when the admin signs out, then the authorizations the session started are gone', async () => {
    const session = await signedInAdmin(portal);
    expect((await session.post('/api/tokens/oauth/authorize')).status).toBe(200);
    const pending = await pendingAuthorizations();
    await session.post('/api/auth/logout');
    expect(await pendingAuthorizations()).toBe(pending - 1);
  });
});

describe('secrets', () => {
  it('when tokens are stored, then no answer and no byte of the database file holds a token value', async () => {
    const pair = await connect(portal);
    const answers = [await updateTokens({ ...pair, refreshTokenExpirySeconds: 3600 })];
    for (const callPath of ['/api/tokens/status', '/api/tokens/info', '/api/tokens/oauth/config'])
      answers.push(await admin.get(callPath));
    answers.push(await admin.post('/api/tokens/oauth/authorize'));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expectNoTokens(JSON.stringify(answer.body), [pair.accessToken, pair.refreshToken]);
    }
    const page = await admin.get('/admin/tokens');
    expect(page.status).toBe(200);
    expectNoTokens(page.body, [pair.accessToken, pair.refreshToken]);

    const stored = await databaseText(portal);
    expectNoTokens(stored, [pair.accessToken, pair.refreshToken, pair.accessToken.split('.')[2]!]);

    // After an OAuth2 flow and a refresh, the tokens the portal got itself are not in clear either.
    await reconnect();
    expect((await admin.post('/api/tokens/refresh')).status).toBe(200);
    expectNoTokens(await databaseText(portal));
    expect(portal.output()).not.toMatch(JWT_SHAPE);
    expect(portal.output()).not.toMatch(REFRESH_SHAPE);
  });
});
