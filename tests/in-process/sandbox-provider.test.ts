/** The built-in sandbox provider over real HTTP: consent page, token endpoint, data endpoints, controls. */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { createUser, signedInAdmin, signIn } from '../support/api-steps';
import {
  authorizationCode,
  authorizeParams,
  CLIENT_ID,
  connect,
  consentPage,
  control,
  decide,
  exchangeCode,
  pkcePair,
  redirectUriOf,
  sandboxGet,
  tokenRequest,
} from '../support/sandbox-steps';

const ACCESS_SECONDS = 900;
const REFRESH_SECONDS = 7200;
const RECEIPTS = 240;

let portal: InProcessPortal;
let plainSandbox: InProcessPortal;
let httpPortal: InProcessPortal;

beforeAll(async () => {
  [portal, plainSandbox, httpPortal] = await Promise.all([
    startInProcessPortal({
      SANDBOX_CONTROL: 'true',
      SANDBOX_RECEIPTS: String(RECEIPTS),
      SANDBOX_ACCESS_TOKEN_SECONDS: String(ACCESS_SECONDS),
      SANDBOX_REFRESH_TOKEN_SECONDS: String(REFRESH_SECONDS),
    }),
    startInProcessPortal({ SANDBOX_RECEIPTS: '20' }),
    startInProcessPortal({ PROVIDER: 'http', PROVIDER_URL: 'http://127.0.0.1:9/provider' }),
  ]);
});

afterAll(async () => {
  await Promise.all([portal?.stop(), plainSandbox?.stop(), httpPortal?.stop()]);
});

describe('consent page', () => {
  it.each([
    ['an unknown client_id', { client_id: 'someone-else' }, 'not registered'],
    [
      'a redirect_uri that is not the registered one',
      { redirect_uri: 'https://evil.example/callback' },
      'redirect URI does not match',
    ],
  ])(
    'when the request has %s, then an error page answers and nothing redirects',
    async (_what, extra, text) => {
      const { status, headers, body } = await sandboxGet(
        portal,
        `/oauth/authorize?${authorizeParams(portal, pkcePair().challenge, extra)}`,
      );
      expect(status).toBe(400);
      expect(headers.get('location')).toBeNull();
      expect(body).toContain(text);
      expect(body).not.toContain('value="authorize"');
    },
  );

  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a code_challenge that is no SHA-256', { code_challenge: 'short' }, 'invalid_request'],
    ['another scope', { scope: 'everything' }, 'invalid_scope'],
  ])(
    'when the request has %s, then the client gets the error at its redirect URI with the state',
    async (_what, extra, error) => {
      const response = await consentPage(
        portal,
        authorizeParams(portal, pkcePair().challenge, extra),
      );
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(redirectUriOf(portal));
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('state-123');
    },
  );

  it('when the user authorizes, then the browser goes back to the redirect URI with a code and the state', async () => {
    const response = await decide(
      portal,
      authorizeParams(portal, pkcePair().challenge),
      'authorize',
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUriOf(portal));
    expect(location.searchParams.get('code')).toMatch(/^[\w-]{40,}$/);
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('when the user denies, then the browser goes back with access_denied, its description and the state', async () => {
    const response = await decide(portal, authorizeParams(portal, pkcePair().challenge), 'deny');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The user denied the authorization request',
      state: 'state-123',
    });
  });

  it('when nobody is signed in at the portal, then the consent page leads to the sign-in page and coming back there is kept', async () => {
    const query = authorizeParams(portal, pkcePair().challenge);
    const response = await fetch(`${portal.url}/sandbox/oauth/authorize?${query}`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login');
    expect(response.headers.getSetCookie().join('\n')).toContain(
      `portal_return_to=${encodeURIComponent(`/sandbox/oauth/authorize?${query}`)}`,
    );
  });

  it('when a stranger posts "authorize" with a PKCE challenge of their own, then no code comes back, and without a token the data stays closed', async () => {
    const { verifier, challenge } = pkcePair();
    const response = await decide(portal, authorizeParams(portal, challenge), 'authorize', {
      cookie: null,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login');
    // Nothing the stranger holds can be exchanged, nor opens the data.
    expect((await exchangeCode(portal, 'no-code', verifier)).status).toBe(400);
    for (const path of ['/v1/receipts', '/v1/consignees'])
      expect((await sandboxGet(portal, path)).status).toBe(401);
  });

  it('when a customer (no admin) posts "authorize", then no code comes back either', async () => {
    const admin = await signedInAdmin(portal);
    const customer = await signIn(portal, await createUser(admin, 'consent-customer'));
    const response = await decide(
      portal,
      authorizeParams(portal, pkcePair().challenge),
      'authorize',
      { cookie: customer.cookie! },
    );
    expect(response.status).toBe(302);
    expect(
      new URL(response.headers.get('location')!, portal.url).searchParams.get('code'),
    ).toBeNull();
    expect(response.headers.get('location')).toBe('/dashboard');
  });

  it('when another site posts the consent form, then it is refused', async () => {
    const response = await decide(
      portal,
      authorizeParams(portal, pkcePair().challenge),
      'authorize',
      { origin: 'https://evil.example' },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('token endpoint', () => {
  it('when a code is exchanged with its verifier, then a JWT access token and a refresh token come back, not cached', async () => {
    const { code, verifier } = await authorizationCode(portal);
    const before = Math.floor(Date.now() / 1000);
    const { status, headers, body } = await exchangeCode(portal, code, verifier);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: ACCESS_SECONDS,
      refresh_token: expect.any(String),
      refresh_token_expires_in: REFRESH_SECONDS,
      scope: 'receipts',
    });
    const claims = decodeJwt(body.access_token);
    expect(claims.exp! - claims.iat!).toBe(ACCESS_SECONDS);
    expect(claims.exp).toBeGreaterThanOrEqual(before + ACCESS_SECONDS);
    expect(claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + ACCESS_SECONDS);
    expect(claims).toMatchObject({
      sub: CLIENT_ID,
      iss: expect.any(String),
      aud: expect.any(String),
      jti: expect.any(String),
    });
    expect(body.refresh_token).not.toContain(body.access_token);
  });

  it('when a code is used a second time, then it is invalid_grant', async () => {
    const { code, verifier } = await authorizationCode(portal);
    expect((await exchangeCode(portal, code, verifier)).status).toBe(200);
    const again = await exchangeCode(portal, code, verifier);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.any(String),
    });
  });

  it.each([
    ['a wrong code_verifier', () => ({ code_verifier: pkcePair().verifier })],
    ['another redirect_uri', () => ({ redirect_uri: 'http://127.0.0.1:1/admin/tokens/callback' })],
    ['an unknown code', () => ({ code: 'no-such-code' })],
  ])('when the exchange has %s, then it is invalid_grant', async (_what, extra) => {
    const { code, verifier } = await authorizationCode(portal);
    const { status, body, headers } = await exchangeCode(portal, code, verifier, extra());
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('when the exchange names another client_id, then it is invalid_client (401) and the code is spent', async () => {
    const { code, verifier } = await authorizationCode(portal);
    const { status, body } = await exchangeCode(portal, code, verifier, {
      client_id: 'someone-else',
    });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
  });

  it.each([
    { what: 'no grant_type', form: { client_id: CLIENT_ID }, error: 'invalid_request' },
    {
      what: 'an unknown grant_type',
      form: { client_id: CLIENT_ID, grant_type: 'password' },
      error: 'unsupported_grant_type',
    },
    {
      what: 'a code grant without its verifier',
      form: {
        client_id: CLIENT_ID,
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: 'x',
      },
      error: 'invalid_request',
    },
    {
      what: 'a repeated parameter',
      form: {
        client_id: CLIENT_ID,
        grant_type: 'refresh_token',
        refresh_token: 'a',
        refresh_token2: 'b',
      },
      error: 'invalid_request',
    },
  ])('when the token request has $what, then the error is $error', async ({ form, error }) => {
    const body = new URLSearchParams(
      Object.entries(form).map(([name, value]) => [name.replace(/2$/, ''), value]),
    );
    const response = await fetch(`${portal.url}/sandbox/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(error);
  });

  it('when the body is JSON instead of a form, then it is invalid_request', async () => {
    const response = await fetch(`${portal.url}/sandbox/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"grant_type":"refresh_token"}',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
  });

  it('when a refresh token is used, then a new pair comes back; the old refresh token is refused afterwards and the new one works', async () => {
    const first = await connect(portal);
    const refreshed = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
      client_id: CLIENT_ID,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refreshToken);
    expect(refreshed.body.access_token).not.toBe(first.accessToken);
    expect(refreshed.body.refresh_token_expires_in).toBe(REFRESH_SECONDS);

    const reused = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
      client_id: CLIENT_ID,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');

    const next = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: CLIENT_ID,
    });
    expect(next.status).toBe(200);
    expect((await sandboxGet(portal, '/v1/consignees', next.body.access_token)).status).toBe(200);
  });

  it('when a refresh token is altered or presented by another client, then it is refused', async () => {
    const { refreshToken } = await connect(portal);
    const altered = `${refreshToken.startsWith('A') ? 'B' : 'A'}${refreshToken.slice(1)}`;
    expect(
      (
        await tokenRequest(portal, {
          grant_type: 'refresh_token',
          refresh_token: altered,
          client_id: CLIENT_ID,
        })
      ).body.error,
    ).toBe('invalid_grant');
    expect(
      (
        await tokenRequest(portal, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: 'someone-else',
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await tokenRequest(portal, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: CLIENT_ID,
        })
      ).status,
    ).toBe(200);
  });
});

describe('data endpoints', () => {
  let accessToken: string;
  beforeAll(async () => {
    ({ accessToken } = await connect(portal));
  });

  it.each([
    '/v1/receipts',
    '/v1/receipts/100001',
    '/v1/consignees',
    '/v1/package-scans?trackingNumber=1Z0000000000000000',
  ])('when %s is called without a token, then 401 with a Bearer challenge', async (path) => {
    const { status, headers } = await sandboxGet(portal, path);
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('when the token is not one the sandbox issued, then 401 with error="invalid_token"', async () => {
    const forged = `${accessToken.slice(0, accessToken.lastIndexOf('.'))}.c2lnbmF0dXJl`;
    for (const token of ['not-a-jwt', forged]) {
      const { status, headers } = await sandboxGet(portal, '/v1/consignees', token);
      expect(status).toBe(401);
      expect(headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('when paging with since and nextCursor, then every receipt comes exactly once and the last page says hasMore false', async () => {
    const { body: samples } = await control(portal, 'samples');
    const seen: number[] = [];
    let since: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const query: string = since ? `?limit=50&since=${encodeURIComponent(since)}` : '?limit=50';
      const { status, body } = await sandboxGet(portal, `/v1/receipts${query}`, accessToken);
      expect(status).toBe(200);
      expect(body.receipts.length).toBeLessThanOrEqual(50);
      seen.push(...body.receipts.map((receipt: { id: number }) => receipt.id));
      since = body.nextCursor;
      if (!body.hasMore) break;
    }
    expect(seen.length).toBe(samples.receipts);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(RECEIPTS);
  });

  it('when a receipt is asked for by id, then it is the one of the list; an unknown id is 404 not_found', async () => {
    const { body } = await sandboxGet(portal, '/v1/receipts?limit=3', accessToken);
    const receipt = body.receipts[2];
    const one = await sandboxGet(portal, `/v1/receipts/${receipt.id}`, accessToken);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(receipt);
    expect(Object.keys(one.body).sort()).toEqual(
      [
        'commodities',
        'consigneeId',
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
        'updatedAt',
      ].sort(),
    );
    for (const path of ['/v1/receipts/1', '/v1/receipts/abc', '/v1/receipts/99999999999']) {
      const missing = await sandboxGet(portal, path, accessToken);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'not_found' });
    }
  });

  it('when the consignees are listed, then about sixty come with ids and unique names', async () => {
    const { status, body } = await sandboxGet(portal, '/v1/consignees', accessToken);
    expect(status).toBe(200);
    expect(body.consignees.length).toBeGreaterThanOrEqual(55);
    expect(new Set(body.consignees.map((consignee: { name: string }) => consignee.name)).size).toBe(
      body.consignees.length,
    );
    expect(body.consignees[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
  });

  it('when package scans are searched, then a parcel on no receipt and one on a receipt have scans (any letter case) and an unknown number has none', async () => {
    const { body: samples } = await control(portal, 'samples');
    const orphan: string = samples.trackingNumbersWithoutReceipt[0];
    const scanned = samples.scannedPackages[0];

    const found = await sandboxGet(
      portal,
      `/v1/package-scans?trackingNumber=${encodeURIComponent(orphan.toLowerCase())}`,
      accessToken,
    );
    expect(found.status).toBe(200);
    expect(found.body.scans.length).toBeGreaterThanOrEqual(1);
    expect(found.body.scans[0]).toMatchObject({
      id: expect.anything(),
      arrival_id: expect.anything(),
      tracking_number: orphan,
      scanned_at: expect.any(String),
    });

    const onReceipt = await sandboxGet(
      portal,
      `/v1/package-scans?trackingNumber=${scanned.trackingNumber}`,
      accessToken,
    );
    expect(onReceipt.body.scans[0].tracking_number).toBe(scanned.trackingNumber);
    const receipt = await sandboxGet(portal, `/v1/receipts/${scanned.receiptId}`, accessToken);
    expect(
      receipt.body.commodities.map(
        (commodity: { trackingNumber: string }) => commodity.trackingNumber,
      ),
    ).toContain(scanned.trackingNumber);

    expect(
      (await sandboxGet(portal, '/v1/package-scans?trackingNumber=NOSUCHNUMBER1', accessToken))
        .body,
    ).toEqual({ scans: [] });
  });

  it.each([
    ['/v1/receipts?limit=0'],
    ['/v1/receipts?limit=1001'],
    ['/v1/receipts?limit=ten'],
    ['/v1/receipts?since=not-a-cursor'],
    ['/v1/package-scans'],
    [`/v1/package-scans?trackingNumber=${'9'.repeat(65)}`],
  ])('when the query is %s, then 400 invalid_request', async (path) => {
    const { status, body } = await sandboxGet(portal, path, accessToken);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_request');
  });
});

describe('controls', () => {
  it('when a change window is applied, then the advanced and added receipts come after the cursor and deleted ones leave the full list', async () => {
    const { accessToken } = await connect(portal);
    const fullPass = async () => {
      const ids: number[] = [];
      let since: string | null = null;
      for (;;) {
        const { body } = await sandboxGet(
          portal,
          `/v1/receipts?limit=1000${since ? `&since=${encodeURIComponent(since)}` : ''}`,
          accessToken,
        );
        ids.push(...body.receipts.map((receipt: { id: number }) => receipt.id));
        since = body.nextCursor;
        if (!body.hasMore) return { ids, cursor: since! };
      }
    };
    let { cursor } = await fullPass();
    const deleted: number[] = [];
    for (let window = 0; window < 40 && deleted.length === 0; window++) {
      const { status, body: changes } = await control(portal, 'advance');
      expect(status).toBe(200);
      expect(changes).toMatchObject({
        advanced: expect.any(Array),
        added: expect.any(Array),
        deleted: expect.any(Array),
      });
      const { body } = await sandboxGet(
        portal,
        `/v1/receipts?since=${encodeURIComponent(cursor)}`,
        accessToken,
      );
      const changed = body.receipts.map((receipt: { id: number }) => receipt.id).sort();
      expect(changed).toEqual([...changes.advanced, ...changes.added].sort());
      expect(changes.added.length).toBeGreaterThanOrEqual(1);
      cursor = body.nextCursor;
      deleted.push(...changes.deleted);
    }
    expect(deleted.length).toBeGreaterThan(0);
    const { ids } = await fullPass();
    for (const id of deleted) expect(ids).not.toContain(id);
    expect((await sandboxGet(portal, `/v1/receipts/${deleted[0]}`, accessToken)).status).toBe(404);
  });

  it('when the sandbox is out, then data calls answer 503 with Retry-After until it recovers', async () => {
    const { accessToken } = await connect(portal);
    expect((await control(portal, 'outage')).status).toBe(200);
    try {
      for (const path of [
        '/v1/receipts',
        '/v1/consignees',
        '/v1/receipts/100001',
        '/v1/package-scans?trackingNumber=12345678',
      ]) {
        const { status, headers } = await sandboxGet(portal, path, accessToken);
        expect(status).toBe(503);
        expect(headers.get('retry-after')).toMatch(/^\d+$/);
      }
    } finally {
      expect((await control(portal, 'recover')).status).toBe(200);
    }
    expect((await sandboxGet(portal, '/v1/consignees', accessToken)).status).toBe(200);
  });

  it('when the tokens are revoked, then issued access tokens get 401 invalid_token while a refreshed one works', async () => {
    const { accessToken, refreshToken } = await connect(portal);
    expect((await sandboxGet(portal, '/v1/consignees', accessToken)).status).toBe(200);
    expect((await control(portal, 'revoke')).status).toBe(200);
    const refused = await sandboxGet(portal, '/v1/consignees', accessToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refreshed = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: CLIENT_ID,
    });
    expect((await sandboxGet(portal, '/v1/consignees', refreshed.body.access_token)).status).toBe(
      200,
    );
  });

  it('when SANDBOX_CONTROL is off, then every control is 404 while the sandbox itself serves', async () => {
    for (const action of ['advance', 'outage', 'recover', 'revoke', 'samples'])
      expect((await control(plainSandbox, action)).status).toBe(404);
    const { accessToken } = await connect(plainSandbox);
    expect((await sandboxGet(plainSandbox, '/v1/consignees', accessToken)).status).toBe(200);
  });

  it('when an unknown control or sandbox path is asked for, then 404', async () => {
    expect((await control(portal, 'constructor')).status).toBe(404);
    expect((await sandboxGet(portal, '/nope')).status).toBe(404);
    expect((await sandboxGet(portal, '')).status).toBe(404);
  });
});

describe('other provider modes', () => {
  it.each([
    '',
    '/oauth/authorize',
    '/oauth/token',
    '/v1/receipts',
    '/v1/consignees',
    '/control/samples',
  ])('when PROVIDER=http, then /sandbox%s is 404', async (path) => {
    expect((await sandboxGet(httpPortal, path)).status).toBe(404);
    const post = await fetch(`${httpPortal.url}/sandbox${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token',
    });
    expect(post.status).toBe(404);
  });
});
