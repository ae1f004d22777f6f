/**
 * The portal against an independent, standards-compliant authorization server (oidc-provider, see
 * tests/support/oidc-server.ts) whose issuer is not the API URL: discovery, a confidential client
 * with client_secret_basic, opaque access tokens of 30 seconds (the portal's clock is moved on to bring
 * their refresh due) refreshed over the syncs with rotated
 * refresh tokens, a refresh token revoked at the server, access_denied, a forged state, a server
 * that issues no refresh token, and Clear Tokens revoking at the server. One portal, one server: the
 * tests run in order and each leaves the connection working.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TEXTS } from '~/shared/tokens';
import { OIDC_CLIENT_ID, startOidcServer, type OidcServer } from '../support/oidc-server';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import type { ApiClient } from '../support/api-client';
import { expectError, signedInAdmin } from '../support/api-steps';
import { connectAtServer, consentAtServer } from '../support/oidc-steps';
import { stallLimit } from '../support/test-pace';

const ACCESS_SECONDS = 30;
const SYNC_SECONDS = 3;
const CLIENT_SECRET = 'oidc-test-client-secret';

let oidcPort: number;
let serverDown: Server | undefined;
let oidc: OidcServer | undefined;
let portal: InProcessPortal;
let admin: ApiClient;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done`; `timeoutMs` is the limit on the reference machine, scaled as every stall's limit is. */
async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + stallLimit(timeoutMs);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await sleep(250);
  }
}

function server(): OidcServer {
  if (!oidc) throw new Error('the authorization server is not running');
  return oidc;
}

/** A portal of the server on oidcPort, syncing every SYNC_SECONDS. */
const portalEnv = () => ({
  PROVIDER: 'http',
  PROVIDER_ISSUER: `http://127.0.0.1:${oidcPort}`,
  PROVIDER_URL: `http://127.0.0.1:${oidcPort}/api`,
  PROVIDER_CLIENT_ID: OIDC_CLIENT_ID,
  PROVIDER_CLIENT_SECRET: CLIENT_SECRET,
  PROVIDER_SCOPE: 'receipts offline_access',
  SYNC_INTERVAL_SECONDS: String(SYNC_SECONDS),
});

beforeAll(async () => {
  // The server's port is held until the server starts on it, so that nothing else takes it meanwhile;
  // while held, every connection is reset, as by a server that is down.
  serverDown = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => serverDown!.listen(0, '127.0.0.1', resolve));
  oidcPort = (serverDown.address() as AddressInfo).port;
  // The portal starts first: its discovery fails and is tried again until the server is up.
  portal = await startInProcessPortal(portalEnv());
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  serverDown?.close();
  await oidc?.stop();
  await portal?.stop();
});

/** "Sync now": the data calls go out with the stored access token, refreshed first when it is due. */
async function syncNow(): Promise<void> {
  const response = await admin.post('/api/sync');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function status(): Promise<Record<string, any>> {
  const response = await admin.get('/api/tokens/status');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

const consent = (decision: 'authorize' | 'deny') => consentAtServer(portal, admin, decision);
const connect = () => connectAtServer(portal, admin);

describe('discovery', () => {
  it('when the server is down at start, then the portal says so, and finds the server by its OpenID metadata once it is up', async () => {
    expectError(
      await admin.get('/api/tokens/oauth/config'),
      502,
      'EXTERNAL_API_ERROR',
      CONNECTION_TEXTS.providerUnavailable,
    );
    serverDown!.close();
    serverDown = undefined;
    oidc = await startOidcServer({
      port: oidcPort,
      redirectUri: `${portal.url}/admin/tokens/callback`,
      clientSecret: CLIENT_SECRET,
      accessTokenSeconds: ACCESS_SECONDS,
    });
    const response = await until(
      () => admin.get('/api/tokens/oauth/config'),
      (answer) => answer.status === 200,
      15_000,
      'discovery after the server came up',
    );
    // Issuer ≠ API URL: the endpoints are the issuer's, from its metadata (it has no OAuth2 metadata document).
    expect(response.body.data).toEqual({
      issuer: server().issuer,
      clientId: OIDC_CLIENT_ID,
      clientType: 'confidential',
      tokenEndpointAuthMethod: 'client_secret_basic',
      authorizationUrl: `${server().issuer}/auth`,
      tokenUrl: `${server().issuer}/token`,
      revocationUrl: `${server().issuer}/token/revocation`,
      redirectUri: `${portal.url}/admin/tokens/callback`,
      scope: 'receipts offline_access',
      codeChallengeMethod: 'S256',
    });
    expect(JSON.stringify(response.body)).not.toContain(CLIENT_SECRET);
  });
});

describe('connecting, refreshing and reconnecting', () => {
  it('when the admin authorizes, then the code is exchanged with the client secret and the issuer checked, the tokens are stored and the receipts mirrored', async () => {
    const started = new URL(
      (await admin.post('/api/tokens/oauth/authorize')).body.data.authorizationUrl,
    );
    expect(Object.fromEntries(started.searchParams)).toMatchObject({
      scope: 'receipts offline_access',
      prompt: 'consent',
      code_challenge_method: 'S256',
      client_id: OIDC_CLIENT_ID,
    });

    await connect();
    const data = await status();
    expect(data).toMatchObject({
      source: 'oauth2',
      hasAccessToken: true,
      hasRefreshToken: true,
      canRefresh: true,
      reconnectRequired: false,
      refreshTokenExpiry: null,
    });
    expect(Date.parse(data.accessTokenExpiry) - portal.clock.now()).toBeLessThanOrEqual(
      ACCESS_SECONDS * 1000,
    );
    const receipts = await until(
      () => admin.get('/api/receipts?limit=10'),
      (answer) => answer.status === 200 && answer.body.pagination.totalItems === 6,
      15_000,
      'the mirror',
    );
    expect(receipts.body.data.map((receipt: { number: string }) => receipt.number)).toContain(
      'OP-7001',
    );
  });

  it('when access tokens live 30 s, then the syncs refresh them once half their life is gone, not on every call, and keep each rotated refresh token', async () => {
    const before = server().counts();
    const outputBefore = portal.output().length;
    for (let round = 1; round <= 2; round++) {
      // A fresh token serves every call…
      for (let call = 0; call < 3; call++) await syncNow();
      expect(server().counts().refreshes).toBe(before.refreshes + round - 1);
      // …until no more than 15 s of its 30 remain: then the next sync refreshes it first.
      portal.clock.advance((ACCESS_SECONDS / 2 + 1) * 1000);
      await syncNow();
      expect(server().counts().refreshes).toBe(before.refreshes + round);
    }
    const after = server().counts();
    const calls = after.dataCalls - before.dataCalls;
    const refreshes = after.refreshes - before.refreshes;
    expect(calls).toBeGreaterThanOrEqual(3 * refreshes);
    expect(after.refusedRefreshes).toBe(before.refusedRefreshes);
    // Rotation: the server retires each refresh token it exchanged; the portal holds the one live one.
    expect(after.liveRefreshTokens).toBe(1);
    expect(await status()).toMatchObject({ canRefresh: true, reconnectRequired: false });
    expect(portal.output().slice(outputBefore)).not.toContain('Receipt sync failed');
  });

  it('when the server revokes the refresh token, then the next refresh is refused once, reconnect is required, and no refresh is tried again', async () => {
    expect(server().revokeRefreshTokens()).toBe(1);
    // Half the access token's life gone: the next sync asks for a refresh, and the server refuses it.
    portal.clock.advance((ACCESS_SECONDS / 2 + 1) * 1000);
    await syncNow();
    const refused = await status();
    expect(refused).toMatchObject({
      hasRefreshToken: true,
      canRefresh: false,
      reconnectRequired: true,
      reconnectReason: expect.any(String),
    });
    const counts = server().counts();
    expect(counts.refusedRefreshes).toBe(1);

    // The syncs go on with the access token while it lasts, without sending the dead refresh token again.
    await syncNow();
    await syncNow();
    expectError(
      await admin.post('/api/tokens/refresh'),
      409,
      'CONFLICT',
      CONNECTION_TEXTS.refreshRefused,
    );
    expect(server().counts()).toMatchObject({ refreshes: counts.refreshes, refusedRefreshes: 1 });

    const dashboard = await admin.get('/dashboard');
    expect(dashboard.body).toContain(CONNECTION_TEXTS.dashboardNotice);
  });

  it('when the admin reconnects, then reconnect is no longer required and refreshing works again', async () => {
    await connect();
    expect(await status()).toMatchObject({
      canRefresh: true,
      reconnectRequired: false,
      reconnectReason: null,
    });
    expect((await admin.post('/api/tokens/refresh')).status).toBe(200);
    expect((await admin.get('/dashboard')).body).not.toContain(CONNECTION_TEXTS.dashboardNotice);
  });
});

describe('a refused refresh token is sent once', () => {
  it.each([
    [
      'followed at once by a sync',
      async () => {
        const refreshed = await admin.post('/api/tokens/refresh');
        const synced = await admin.post('/api/sync');
        return [refreshed, synced];
      },
    ],
    [
      'with a sync at the same moment',
      () => Promise.all([admin.post('/api/tokens/refresh'), admin.post('/api/sync')]),
    ],
  ])(
    "when the admin's refresh is refused %s, then neither that sync nor later ones send the dead refresh token again",
    async (_when, refreshAndSync) => {
      expect(server().revokeRefreshTokens()).toBe(1);
      const before = server().counts();
      const [refreshed] = await refreshAndSync();
      expect(refreshed!.status).toBe(502);
      expect(await status()).toMatchObject({ reconnectRequired: true, canRefresh: false });
      // Later syncs, with a refresh due by then.
      portal.clock.advance((ACCESS_SECONDS / 2 + 1) * 1000);
      await syncNow();
      await syncNow();
      expect(server().counts().refusedRefreshes - before.refusedRefreshes).toBe(1);
      expect(server().counts().refreshes).toBe(before.refreshes);
      await connect();
      expect(await status()).toMatchObject({ canRefresh: true, reconnectRequired: false });
    },
  );
});

/** Syncs this portal has run, scheduled or asked for, whatever their result. */
async function syncsRun(): Promise<number> {
  const metric = await portal.portal.metrics.registry.getSingleMetric('portal_syncs_total')!.get();
  return metric.values.reduce((sum, { value }) => sum + value, 0);
}

describe('a refused refresh token is never sent again', () => {
  it('when the scheduled syncs meet the refusal, then over the next two sync intervals no refresh grant reaches the server', async () => {
    expect(server().revokeRefreshTokens()).toBe(1);
    const before = server().counts();
    // The access token's life runs out: every scheduled sync from now on needs a refresh.
    portal.clock.advance((ACCESS_SECONDS + 1) * 1000);
    await until(
      async () => server().counts().refusedRefreshes,
      (refused) => refused > before.refusedRefreshes,
      4 * SYNC_SECONDS * 1000,
      'the refusal',
    );
    expect(await status()).toMatchObject({ reconnectRequired: true, canRefresh: false });

    const runs = await syncsRun();
    await until(
      syncsRun,
      (now) => now >= runs + 2,
      6 * SYNC_SECONDS * 1000,
      'two more scheduled syncs',
    );
    expect(server().counts()).toMatchObject({
      refreshes: before.refreshes,
      refusedRefreshes: before.refusedRefreshes + 1,
    });
    await connect();
    expect(await status()).toMatchObject({ canRefresh: true, reconnectRequired: false });
  });

  it('when the server revokes the whole grant (the access token too), then the scheduled syncs meet 401s, one refresh is refused, and none is sent again', async () => {
    server().revokeGrants();
    const before = server().counts();
    await until(
      async () => server().counts().refusedRefreshes,
      (refused) => refused > before.refusedRefreshes,
      4 * SYNC_SECONDS * 1000,
      'the refusal',
    );
    expect(await status()).toMatchObject({ reconnectRequired: true, canRefresh: false });
    const runs = await syncsRun();
    await until(
      syncsRun,
      (now) => now >= runs + 2,
      6 * SYNC_SECONDS * 1000,
      'two more scheduled syncs',
    );
    expect(server().counts()).toMatchObject({
      refreshes: before.refreshes,
      refusedRefreshes: before.refusedRefreshes + 1,
    });
    await connect();
    expect(await status()).toMatchObject({ canRefresh: true, reconnectRequired: false });
  });

  it("when reconnect is required, then a receipt's attachments, the package search and the status poll send no refresh grant either", async () => {
    const receipts = await admin.get('/api/receipts?limit=1');
    expect(receipts.status).toBe(200);
    const receiptId = receipts.body.data[0].id;
    expect(server().revokeRefreshTokens()).toBe(1);
    const before = server().counts();
    // The access token's life runs out: each of these needs a refresh before it can call the server.
    portal.clock.advance((ACCESS_SECONDS + 1) * 1000);
    expect((await admin.post('/api/tokens/refresh')).status).toBe(502);
    expect(await status()).toMatchObject({ reconnectRequired: true, canRefresh: false });

    for (let round = 0; round < 2; round++) {
      expect((await admin.get(`/api/receipts/${receiptId}/attachments`)).status).toBe(503);
      expect(
        (await admin.get('/api/package-tracker/search?trackingNumber=1Z999AA10123456784')).status,
      ).toBe(503);
      expect(await status()).toMatchObject({ reconnectRequired: true });
    }
    expect(server().counts()).toMatchObject({
      refreshes: before.refreshes,
      refusedRefreshes: before.refusedRefreshes + 1,
    });
    await connect();
    expect(await status()).toMatchObject({ canRefresh: true, reconnectRequired: false });
  });

  it('when a second process syncs from the same database, then neither process sends the refused refresh token again', async () => {
    const other = await startInProcessPortal(portalEnv(), { dir: portal.dir });
    try {
      expect(server().revokeRefreshTokens()).toBe(1);
      const before = server().counts();
      for (const each of [portal, other]) each.clock.advance((ACCESS_SECONDS + 1) * 1000);
      await until(
        async () => server().counts().refusedRefreshes,
        (refused) => refused > before.refusedRefreshes,
        4 * SYNC_SECONDS * 1000,
        'the refusal',
      );
      const runs = await syncsRun();
      await until(
        syncsRun,
        (now) => now >= runs + 3,
        8 * SYNC_SECONDS * 1000,
        'more scheduled syncs',
      );
      expect(server().counts()).toMatchObject({
        refreshes: before.refreshes,
        refusedRefreshes: before.refusedRefreshes + 1,
      });
    } finally {
      // The database and its folder are the first portal's.
      await other.stop({ keepDir: true });
    }
    await connect();
  });
});

describe('refusals', () => {
  it('when the admin denies at the server, then the callback shows its reason and the tokens stay', async () => {
    const before = await status();
    const callback = await consent('deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const page = await admin.get(callback.pathname + callback.search);
    expect(page.status).toBe(400);
    expect(page.body).toContain(
      'OAuth2 authorization failed: The user denied the authorization request',
    );
    expect((await status()).lastUpdated).toBe(before.lastUpdated);
  });

  it('when the state is forged, then the callback refuses it without asking the server, and the real one still works', async () => {
    const callback = await consent('authorize');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state');
    const before = server().counts();
    const refused = await admin.get(forged.pathname + forged.search);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain(
      'OAuth2 authorization failed: This authorization is unknown, expired, already used or was started in another session.',
    );
    expect(server().counts().liveRefreshTokens).toBe(before.liveRefreshTokens);
    expect((await admin.get(callback.pathname + callback.search)).status).toBe(200);
  });

  it('when the server issues no refresh token, then the tokens are stored and the admin is told the connection will stop', async () => {
    server().setIssueRefreshTokens(false);
    try {
      const page = await connect();
      expect(page).toContain(CONNECTION_TEXTS.noRefreshToken);
      expect(await status()).toMatchObject({
        hasAccessToken: true,
        hasRefreshToken: false,
        canRefresh: false,
        reconnectRequired: false,
      });
    } finally {
      server().setIssueRefreshTokens(true);
    }
    await connect();
    expect((await status()).hasRefreshToken).toBe(true);
  });
});

describe('clear', () => {
  it("when the admin clears the tokens, then the server revokes the portal's refresh token first", async () => {
    // Earlier connections' refresh tokens are still live at the server: the portal only knows its own.
    const live = server().counts().liveRefreshTokens;
    const response = await admin.delete('/api/tokens/clear');
    expect(response.body).toEqual({
      success: true,
      data: { revoked: true, revocationError: null },
      message: CONNECTION_TEXTS.cleared,
    });
    expect(server().counts().liveRefreshTokens).toBe(live - 1);
    expect((await status()).hasAccessToken).toBe(false);
  });

  it('when the revocation fails, then it is reported and the tokens are deleted all the same', async () => {
    await connect();
    await server().stop();
    oidc = undefined;
    const response = await admin.delete('/api/tokens/clear');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      revoked: false,
      revocationError: 'The provider could not be reached',
    });
    expect(response.body.message).toBe(
      CONNECTION_TEXTS.clearedWithoutRevocation('The provider could not be reached'),
    );
    expect(await status()).toMatchObject({ hasAccessToken: false, hasRefreshToken: false });
  });
});
