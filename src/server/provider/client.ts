/**
 * The provider's HTTP client (docs/provider-api.md), the same for the sandbox and production. It sends
 * the stored access token, refreshes it 5 minutes before expiry and once after a 401 (then retries
 * once), and lets concurrent callers share one refresh. Every failure is a ProviderError.
 */
import * as oauth from 'oauth4webapi';
import * as z from 'zod/mini';
import { TOKEN_AUTO_REFRESH_MINUTES } from '~/shared/constants';
import { receiptSchema } from '~/shared/receipts';
import { config } from '../config';
import { readProviderTokens, saveProviderTokens, type StoredTokens } from '../services/provider-tokens';
import { ProviderError, type PackageScan, type ProviderClient, type ProviderConsignee, type ProviderReceipt, type ReceiptChangesPage } from './contract';
import { asProviderError, isNetworkFailure, requestTokenRefresh, transportOptions } from './oauth';

const REFRESH_AHEAD_MS = TOKEN_AUTO_REFRESH_MINUTES * 60_000;

/** The provider's receipt is the portal's (docs/provider-api.md) plus its consignee id and change time. */
const providerReceiptSchema = z.extend(receiptSchema, { consigneeId: z.number(), updatedAt: z.string() });

const changesPageSchema = z.object({
  receipts: z.array(providerReceiptSchema),
  nextCursor: z.nullable(z.string()),
  hasMore: z.boolean(),
});

const consigneesSchema = z.object({ consignees: z.array(z.object({ id: z.number(), name: z.string() })) });

const scanId = z.union([z.number(), z.string()]);
const scansSchema = z.object({
  scans: z.array(
    z.looseObject({
      id: scanId,
      arrival_id: z._default(z.nullable(scanId), null),
      tracking_number: z.string(),
      scanned_at: z.string(),
    }),
  ),
});

const unauthorized = (message: string) => new ProviderError(message, 'unauthorized');
const expiresWithin = (at: Date | null, ms: number) => at !== null && at.getTime() - Date.now() <= ms;

let refreshing: Promise<string> | null = null;

/** One refresh grant at a time for the whole process; resolves with the new access token. */
function sharedRefresh(): Promise<string> {
  refreshing ??= refreshStoredTokens().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function refreshStoredTokens(): Promise<string> {
  const stored = await readProviderTokens();
  if (!stored) throw new ProviderError('The provider is not connected', 'not-connected');
  if (stored.refreshToken === null) throw unauthorized('No refresh token is stored');
  if (expiresWithin(stored.refreshTokenExpiresAt, 0)) throw unauthorized('The refresh token has expired');
  const answer = await requestTokenRefresh(stored.refreshToken);
  // A provider that does not rotate leaves the stored refresh token in force.
  const tokens = answer.refreshToken === null ? { ...answer, refreshToken: stored.refreshToken, refreshTokenExpiresAt: stored.refreshTokenExpiresAt } : answer;
  await saveProviderTokens(tokens, stored.source ?? 'oauth2');
  return tokens.accessToken;
}

/** True while a refresh grant is under way (spec section 3 "Token status": isRefreshing). */
export function isRefreshingTokens(): boolean {
  return refreshing !== null;
}

/** Exchanges the stored refresh token for new tokens now (the admin's Refresh Token button). */
export async function refreshProviderTokens(): Promise<void> {
  await sharedRefresh();
}

const usable = (stored: StoredTokens): stored is StoredTokens & { accessToken: string } =>
  stored.accessToken !== null && !expiresWithin(stored.accessTokenExpiresAt, 0);

/** The access token to send, refreshed first when it expires within TOKEN_AUTO_REFRESH_MINUTES. */
async function currentAccessToken(): Promise<string> {
  const stored = await readProviderTokens();
  if (!stored) throw new ProviderError('The provider is not connected', 'not-connected');
  if (stored.accessToken !== null && !expiresWithin(stored.accessTokenExpiresAt, REFRESH_AHEAD_MS)) return stored.accessToken;
  if (stored.refreshToken === null) {
    if (usable(stored)) return stored.accessToken;
    throw unauthorized('The access token has expired and no refresh token is stored');
  }
  try {
    return await sharedRefresh();
  } catch (error) {
    // An early refresh that failed is tried again next time; the current token still serves until then.
    if (usable(stored)) return stored.accessToken;
    throw error;
  }
}

/** After a 401 with `rejected`: the token another caller has refreshed meanwhile, or a refresh of our own. */
async function renewedAccessToken(rejected: string): Promise<string> {
  const stored = await readProviderTokens();
  if (stored && usable(stored) && stored.accessToken !== rejected) return stored.accessToken;
  return sharedRefresh();
}

async function send(accessToken: string, url: URL): Promise<Response> {
  try {
    return await oauth.protectedResourceRequest(accessToken, 'GET', url, new Headers({ Accept: 'application/json' }), undefined, transportOptions());
  } catch (error) {
    // A 401 with a Bearer challenge arrives as this error; the caller decides what a 401 means.
    if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
    throw asProviderError(error);
  }
}

/** GET a data path with the Bearer token; resolves with the answer's status and parsed body. */
async function getJson(path: string, query: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const url = new URL(`${config.providerUrl}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);

  let accessToken = await currentAccessToken();
  let response = await send(accessToken, url);
  if (response.status === 401) {
    await response.body?.cancel();
    accessToken = await renewedAccessToken(accessToken);
    response = await send(accessToken, url);
    if (response.status === 401) {
      await response.body?.cancel();
      throw unauthorized('The provider refused the access token');
    }
  }
  if (response.status >= 500) {
    await response.body?.cancel();
    throw new ProviderError(`The provider answered ${response.status}`, 'unreachable');
  }
  try {
    return { status: response.status, body: await response.json() };
  } catch (error) {
    if (isNetworkFailure(error)) throw asProviderError(error);
    throw new ProviderError(`The provider answered ${response.status} without JSON`, 'bad-response');
  }
}

function expectOk(status: number, path: string): void {
  if (status !== 200) throw new ProviderError(`The provider answered ${status} for ${path}`, 'bad-response');
}

function parsed<T>(schema: z.ZodMiniType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ProviderError(`The provider's answer for ${what} does not match the contract`, 'bad-response');
  return result.data;
}

const httpClient: ProviderClient = {
  async listReceiptChanges(since: string | null, limit?: number): Promise<ReceiptChangesPage> {
    const query: Record<string, string> = {};
    if (since !== null) query.since = since;
    if (limit !== undefined) query.limit = String(limit);
    const { status, body } = await getJson('/v1/receipts', query);
    expectOk(status, '/v1/receipts');
    return parsed(changesPageSchema, body, 'receipts');
  },

  async getReceipt(id: number): Promise<ProviderReceipt | null> {
    const { status, body } = await getJson(`/v1/receipts/${encodeURIComponent(id)}`);
    if (status === 404) return null;
    expectOk(status, '/v1/receipts/{id}');
    return parsed(providerReceiptSchema, body, 'receipt');
  },

  async listConsignees(): Promise<ProviderConsignee[]> {
    const { status, body } = await getJson('/v1/consignees');
    expectOk(status, '/v1/consignees');
    return parsed(consigneesSchema, body, 'consignees').consignees;
  },

  async searchPackageScans(trackingNumber: string): Promise<PackageScan[]> {
    const { status, body } = await getJson('/v1/package-scans', { trackingNumber });
    expectOk(status, '/v1/package-scans');
    return parsed(scansSchema, body, 'package scans').scans;
  },
};

/** The provider client of this process (sandbox and production alike speak HTTP). */
export function providerClient(): ProviderClient {
  return httpClient;
}
