/**
 * The production provider client (oauth4webapi, encrypted token store) of a portal with PROVIDER=http,
 * talking to another portal's sandbox over real HTTP as it would to any provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '~/server/provider/contract';
import { exchangeAuthorizationCode, startAuthorization } from '~/server/provider/oauth';
import type { Portal } from '~/server/portal';
import { databaseDate, queryDatabase, writeDatabase } from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { CLIENT_ID, control, decide, tokenRequest } from '../../support/sandbox-steps';

const ACCESS_SECONDS = 3600;
const REFRESH_SECONDS = 86_400;
const MINUTE = 60_000;

/** The provider: a portal's sandbox. */
let portal: InProcessPortal;
/** The client: a portal on the provider over HTTP, under the provider portal's address (its registered redirect URI). */
let clientSide: InProcessPortal;
let client: Portal;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_CONTROL: 'true',
    SANDBOX_RECEIPTS: '150',
    SANDBOX_ACCESS_TOKEN_SECONDS: String(ACCESS_SECONDS),
    SANDBOX_REFRESH_TOKEN_SECONDS: String(REFRESH_SECONDS),
  });
  // Its own syncs would use the tokens these tests set up: it runs no background work.
  clientSide = await startInProcessPortal(
    {
      PUBLIC_URL: portal.url,
      PROVIDER: 'http',
      PROVIDER_URL: `${portal.url}/sandbox`,
      APP_SECRET: 'provider-client-test-secret',
    },
    { background: false },
  );
  client = clientSide.portal;
});

afterAll(async () => {
  await clientSide?.stop();
  await portal?.stop();
});

/** The admin's part of the flow: the consent page, then Authorize or Deny; resolves with the callback URL. */
async function consent(decision: 'authorize' | 'deny') {
  const start = await startAuthorization(client);
  const page = await fetch(start.authorizationUrl);
  expect(page.status).toBe(200);
  const response = await decide(portal, new URL(start.authorizationUrl).searchParams, decision);
  return { ...start, callback: new URL(response.headers.get('location')!) };
}

async function connectClient(): Promise<void> {
  const { callback, codeVerifier, state } = await consent('authorize');
  await client.tokenStore.save(
    await exchangeAuthorizationCode(client, callback, codeVerifier, state),
    'oauth2',
  );
}

async function stored() {
  const value = await client.tokenStore.read();
  if (!value) throw new Error('no tokens stored');
  return value;
}

async function expectProviderError(promise: Promise<unknown>, kind: string, message?: string) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe(kind);
  if (message) expect((error as Error).message).toBe(message);
}

describe('authorization code flow (oauth.ts)', () => {
  it('when the authorization URL is built, then it carries the client, the redirect URI, the scope, S256 and a fresh verifier and state', async () => {
    const [a, b] = [await startAuthorization(client), await startAuthorization(client)];
    const url = new URL(a.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${portal.url}/sandbox/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${portal.url}/admin/tokens/callback`,
      scope: 'receipts',
      code_challenge_method: 'S256',
      state: a.state,
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    expect(a.state).not.toBe(b.state);
    expect(a.authorizationUrl).not.toContain(a.codeVerifier);
  });

  it('when the admin authorizes, then the code is exchanged for tokens with their expiries, stored encrypted in one row', async () => {
    const { callback, codeVerifier, state } = await consent('authorize');
    const before = Date.now();
    const set = await exchangeAuthorizationCode(client, callback, codeVerifier, state);
    expect(set.accessToken.split('.')).toHaveLength(3);
    expect(set.refreshToken).toEqual(expect.any(String));
    expect(set.accessTokenExpiresAt!.getTime()).toBeGreaterThanOrEqual(
      before + ACCESS_SECONDS * 1000 - 1000,
    );
    expect(set.accessTokenExpiresAt!.getTime()).toBeLessThanOrEqual(
      Date.now() + ACCESS_SECONDS * 1000,
    );
    expect(set.refreshTokenExpiresAt!.getTime()).toBeGreaterThanOrEqual(
      before + REFRESH_SECONDS * 1000 - 1000,
    );

    await client.tokenStore.save(set, 'oauth2');
    expect(await stored()).toMatchObject({ ...set, source: 'oauth2', updatedAt: expect.any(Date) });
    const rows = await queryDatabase<{ accessToken: string; refreshToken: string }>(
      clientSide,
      'SELECT accessToken, refreshToken FROM provider_tokens',
    );
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.accessToken).toMatch(/^v1\./);
    expect(row.accessToken).not.toContain(set.accessToken.split('.')[1]);
    expect(row.refreshToken).not.toContain(set.refreshToken!.split('.')[0]);
  });

  it("when the admin denies, then the exchange fails as unauthorized with the provider's description", async () => {
    const { callback, codeVerifier, state } = await consent('deny');
    await expectProviderError(
      exchangeAuthorizationCode(client, callback, codeVerifier, state),
      'unauthorized',
      'The user denied the authorization request',
    );
  });

  it("when the callback's state is not the one sent, then the exchange fails", async () => {
    const { callback, codeVerifier } = await consent('authorize');
    await expectProviderError(
      exchangeAuthorizationCode(client, callback, codeVerifier, 'another-state'),
      'bad-response',
    );
  });

  it('when a code is exchanged twice or with another verifier, then the provider refuses it as unauthorized', async () => {
    const { callback, codeVerifier, state } = await consent('authorize');
    await exchangeAuthorizationCode(client, callback, codeVerifier, state);
    await expectProviderError(
      exchangeAuthorizationCode(client, callback, codeVerifier, state),
      'unauthorized',
    );
    const other = await consent('authorize');
    await expectProviderError(
      exchangeAuthorizationCode(client, other.callback, codeVerifier, other.state),
      'unauthorized',
    );
  });
});

describe('provider client', () => {
  beforeEach(async () => {
    await connectClient();
  });

  it('when receipts are paged through, then every receipt comes once; one receipt, consignees and scans come as the contract says', async () => {
    const { provider } = client;
    const ids = new Set<number>();
    let since: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const page = await provider.listReceiptChanges(since, 40);
      for (const receipt of page.receipts) ids.add(receipt.id);
      since = page.nextCursor;
      if (!page.hasMore) break;
    }
    const { body: samples } = await control(portal, 'samples');
    expect(ids.size).toBe(samples.receipts);
    expect(await provider.getReceipt([...ids][0]!)).toMatchObject({
      id: [...ids][0],
      number: expect.stringMatching(/^WR-/),
    });
    expect(await provider.getReceipt(1)).toBeNull();
    expect((await provider.listConsignees()).length).toBeGreaterThanOrEqual(55);
    const scans = await provider.searchPackageScans(samples.trackingNumbersWithoutReceipt[0]);
    expect(scans[0]).toMatchObject({
      tracking_number: samples.trackingNumbersWithoutReceipt[0],
      arrival_id: expect.anything(),
      carrier: expect.any(String),
    });
    expect(await provider.searchPackageScans('NOSUCHNUMBER1')).toEqual([]);
  });

  it('when the access token is refused (401), then the client refreshes once, retries, and stores the rotated pair; the old refresh token is dead', async () => {
    const before = await stored();
    await control(portal, 'revoke');
    expect((await client.provider.listConsignees()).length).toBeGreaterThan(0);
    const after = await stored();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.source).toBe('oauth2');
    expect(
      (
        await tokenRequest(portal, {
          grant_type: 'refresh_token',
          refresh_token: before.refreshToken!,
          client_id: CLIENT_ID,
        })
      ).body.error,
    ).toBe('invalid_grant');
  });

  it('when many calls meet a refused token at once, then they share one refresh and all succeed', async () => {
    const before = await stored();
    await control(portal, 'revoke');
    const { provider } = client;
    const answers = await Promise.all([
      provider.listConsignees(),
      provider.listConsignees(),
      provider.listReceiptChanges(null, 5),
      provider.getReceipt(100001),
      provider.searchPackageScans('12345678'),
      provider.listConsignees(),
    ]);
    expect(answers).toHaveLength(6);
    expect((await stored()).refreshToken).not.toBe(before.refreshToken);
  });

  /** Stores the current tokens again as if they had been stored `agoMs` earlier and expire at `expiresAt`. */
  async function storeAged(
    current: Awaited<ReturnType<typeof stored>>,
    agoMs: number,
    expiresInMs: number,
  ) {
    await client.tokenStore.save(
      {
        ...current,
        accessToken: current.accessToken!,
        accessTokenExpiresAt: new Date(Date.now() + expiresInMs),
      },
      'oauth2',
    );
    await writeDatabase(clientSide, 'UPDATE provider_tokens SET updatedAt = ?', [
      databaseDate(new Date(Date.now() - agoMs)),
    ]);
  }

  it("when an hour's access token has less than five minutes left, then the client refreshes before the call; with more time left it does not", async () => {
    const current = await stored();
    await storeAged(current, 50 * MINUTE, 10 * MINUTE);
    await client.provider.listConsignees();
    expect((await stored()).accessToken).toBe(current.accessToken);

    await storeAged(current, 56 * MINUTE, 4 * MINUTE);
    await client.provider.listConsignees();
    const after = await stored();
    expect(after.accessToken).not.toBe(current.accessToken);
    expect(after.refreshToken).not.toBe(current.refreshToken);
    expect(after.accessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 50 * MINUTE);
  });

  it('when a short-lived access token has more than half its lifetime left, then it is used without a refresh; past half, it is refreshed', async () => {
    const current = await stored();
    // Four minutes' lifetime, just stored: under the five-minute rule alone every call would refresh.
    await client.tokenStore.save(
      {
        ...current,
        accessToken: current.accessToken!,
        accessTokenExpiresAt: new Date(Date.now() + 4 * MINUTE),
      },
      'oauth2',
    );
    for (let call = 0; call < 3; call++) await client.provider.listConsignees();
    expect((await stored()).accessToken).toBe(current.accessToken);

    await storeAged(current, 2.5 * MINUTE, 1.5 * MINUTE);
    await client.provider.listConsignees();
    expect((await stored()).accessToken).not.toBe(current.accessToken);
  });

  it("when the client refreshes the tokens (the admin's button), then a new pair is stored and the source is kept", async () => {
    const before = await stored();
    await client.oauthClient.refreshTokens();
    const after = await stored();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.source).toBe('oauth2');
  });

  it('when the refresh is refused, then the call fails as unauthorized', async () => {
    const current = await stored();
    await client.tokenStore.save(
      { ...current, accessToken: current.accessToken!, refreshToken: 'not-a-refresh-token' },
      'manual',
    );
    await control(portal, 'revoke');
    await expectProviderError(client.provider.listConsignees(), 'unauthorized');
    await expectProviderError(client.oauthClient.refreshTokens(), 'unauthorized');
  });

  it('when the access token has expired and there is no refresh token, then the call fails as unauthorized', async () => {
    const current = await stored();
    await client.tokenStore.save(
      {
        accessToken: current.accessToken!,
        accessTokenExpiresAt: new Date(Date.now() - MINUTE),
        refreshToken: null,
        refreshTokenExpiresAt: null,
      },
      'manual',
    );
    await expectProviderError(client.provider.listConsignees(), 'unauthorized');
  });

  it('when no tokens are stored, then calls and refreshes fail as not-connected', async () => {
    await client.tokenStore.clear();
    expect(await client.tokenStore.read()).toBeNull();
    await expectProviderError(client.provider.listReceiptChanges(null), 'not-connected');
    await expectProviderError(client.oauthClient.refreshTokens(), 'not-connected');
  });

  it('when the provider is down, then calls fail as unreachable, and work again after it recovers', async () => {
    await control(portal, 'outage');
    try {
      await expectProviderError(client.provider.listReceiptChanges(null), 'unreachable');
      await expectProviderError(client.provider.searchPackageScans('12345678'), 'unreachable');
    } finally {
      await control(portal, 'recover');
    }
    expect((await client.provider.listConsignees()).length).toBeGreaterThan(0);
  });

  it('when a stored value no longer decrypts, then it reads as absent and the client gets a new access token with the refresh token', async () => {
    const current = await stored();
    // One character of the IV changed, the way a damaged or tampered row would look.
    await writeDatabase(
      clientSide,
      "UPDATE provider_tokens SET accessToken = 'v1.' || (CASE WHEN substr(accessToken, 4, 1) = 'A' THEN 'B' ELSE 'A' END) || substr(accessToken, 5)",
    );
    const read = await stored();
    expect(read.accessToken).toBeNull();
    expect(read.refreshToken).toBe(current.refreshToken);
    expect((await client.provider.listConsignees()).length).toBeGreaterThan(0);
    expect((await stored()).accessToken).toEqual(expect.any(String));
  });
});
