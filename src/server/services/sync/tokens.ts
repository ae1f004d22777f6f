/**
 * The admin's side of the provider connection (the Token Management screen): what is known about the
 * stored tokens, manual entry, refresh now, clear, and the OAuth2 authorization code flow with PKCE.
 * No answer of this module carries a token value or the PKCE verifier.
 */
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { Op } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { AuditDetails } from '~/shared/audit';
import { TOKEN_AUTO_REFRESH_MINUTES } from '~/shared/constants';
import {
  CONNECTION_TEXTS,
  type OAuthConfig,
  type OAuthPopupMessage,
  type OAuthStart,
  type TokenClearResult,
  type TokenInfo,
  type TokenSource,
  type TokenStatus,
  type TokenUpdateInput,
} from '~/shared/tokens';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { decryptValue, encryptValue } from '../../encryption';
import { AppError } from '../../errors';
import type { HttpProviderClient } from '../../provider/client';
import { ProviderError, type TokenSet } from '../../provider/contract';
import {
  exchangeAuthorizationCode,
  revokeTokens,
  startAuthorization,
  tokenAuthMethod,
  type OAuthDeps,
} from '../../provider/oauth';
import type { StoredTokens } from '../../provider/token-store';
import type { AppKeys } from '../../secrets';
import { recordAudit, type AuditActor } from '../audit';
import type { ProviderTokenStore } from './provider-tokens';

/** What the admin's side of the provider connection takes. */
export interface TokenDeps extends OAuthDeps {
  config: OAuthDeps['config'] & Pick<Config, 'provider' | 'providerUrl' | 'providerIssuer'>;
  db: Database;
  keys: Pick<AppKeys, 'oauthAuthorizations'>;
  tokenStore: ProviderTokenStore;
  oauthClient: Pick<HttpProviderClient, 'isRefreshingTokens' | 'refreshTokens'>;
}

const MINUTE_MS = 60_000;
/** How long an admin has to finish the provider's login once the popup opened. */
const AUTHORIZATION_LIFETIME_MS = 10 * MINUTE_MS;
const PROVIDER_RETRY_SECONDS = 60;
/** A provider's error text is shown to the admin: a sentence, not a page. */
const DESCRIPTION_MAX_LENGTH = 300;

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const isPast = (date: Date | null, now: number) => date !== null && date.getTime() <= now;
const minutesLeft = (date: Date | null, now: number) =>
  date ? Math.max(0, Math.floor((date.getTime() - now) / MINUTE_MS)) : null;

function statusOf(
  { clock, oauthClient }: Pick<TokenDeps, 'clock' | 'oauthClient'>,
  stored: StoredTokens | null,
): TokenStatus {
  const now = clock.now();
  const access = stored?.accessToken ? stored.accessTokenExpiresAt : null;
  const refresh = stored?.refreshToken ? stored.refreshTokenExpiresAt : null;
  const hasRefreshToken = Boolean(stored?.refreshToken);
  const isRefreshTokenExpired = isPast(refresh, now);
  return {
    hasAccessToken: Boolean(stored?.accessToken),
    hasRefreshToken,
    isAccessTokenExpired: isPast(access, now),
    isRefreshTokenExpired,
    accessTokenExpiry: iso(access),
    refreshTokenExpiry: iso(refresh),
    accessTokenExpiresInMinutes: minutesLeft(access, now),
    refreshTokenExpiresInMinutes: minutesLeft(refresh, now),
    canRefresh: hasRefreshToken && !isRefreshTokenExpired && !stored?.reconnectRequired,
    isRefreshing: oauthClient.isRefreshingTokens() || Boolean(stored?.refreshing),
    source: stored?.source ?? null,
    lastUpdated: iso(stored?.updatedAt ?? null),
    reconnectRequired: Boolean(stored?.reconnectRequired),
    reconnectReason: stored?.reconnectRequired?.reason?.slice(0, DESCRIPTION_MAX_LENGTH) ?? null,
  };
}

export async function readTokenStatus(
  deps: Pick<TokenDeps, 'clock' | 'oauthClient' | 'tokenStore'>,
): Promise<TokenStatus> {
  return statusOf(deps, await deps.tokenStore.read());
}

/** A provider URL as it may be shown: credentials an operator put into it are left out. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return '';
  }
}

export async function readTokenInfo({
  config,
  tokenStore,
}: Pick<TokenDeps, 'config' | 'tokenStore'>): Promise<TokenInfo> {
  const stored = await tokenStore.read();
  return {
    provider: config.provider,
    providerUrl: displayUrl(config.providerUrl),
    redirectUri: config.oauthRedirectUri,
    autoRefreshMinutesBeforeExpiry: TOKEN_AUTO_REFRESH_MINUTES,
    source: stored?.source ?? null,
    lastUpdated: iso(stored?.updatedAt ?? null),
  };
}

/** The provider's failure as the admin's answer: 502, with a retry hint when it could not be reached. */
function providerFailure(error: ProviderError): AppError {
  return error.kind === 'unreachable'
    ? new AppError('EXTERNAL_API_ERROR', CONNECTION_TEXTS.providerUnavailable, {
        status: 502,
        retryAfter: PROVIDER_RETRY_SECONDS,
      })
    : new AppError('EXTERNAL_API_ERROR', m.tokens_provider_unusable({ reason: error.message }), {
        status: 502,
      });
}

async function providerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof ProviderError ? providerFailure(error) : error;
  }
}

/** The client as registered and the endpoints in use (discovered or configured). */
export async function readOAuthConfig({
  config,
  discovery,
}: Pick<TokenDeps, 'config' | 'discovery'>): Promise<OAuthConfig> {
  const as = await providerCall(() => discovery.authorizationServer());
  return {
    issuer: config.providerIssuer === null ? null : as.issuer,
    clientId: config.providerClientId,
    clientType: config.providerClientSecret ? 'confidential' : 'public',
    tokenEndpointAuthMethod: tokenAuthMethod(config, as.token_endpoint_auth_methods_supported),
    authorizationUrl: displayUrl(as.authorization_endpoint ?? ''),
    tokenUrl: displayUrl(as.token_endpoint ?? ''),
    revocationUrl: as.revocation_endpoint ? displayUrl(as.revocation_endpoint) : null,
    redirectUri: config.oauthRedirectUri,
    scope: config.providerScope,
    codeChallengeMethod: 'S256',
  };
}

/** The `exp` of a JWT access token; null for an opaque token (its expiry is then unknown). */
function jwtExpiry(token: string): Date | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000) : null;
  } catch {
    return null;
  }
}

const TOKENS_TARGET = 'provider tokens';

/** What an entry says of stored tokens: which there are and until when, never a value. */
function tokensDetail(
  tokens: TokenSet,
  source: TokenSource,
): AuditDetails['provider-tokens.saved'] {
  return {
    source,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt?.toISOString() ?? null,
    refreshToken: tokens.refreshToken !== null,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt?.toISOString() ?? null,
  };
}

/** Stores tokens an admin brought, with their audit entry. */
async function saveTokens(
  deps: TokenDeps,
  actor: AuditActor,
  action: 'provider-tokens.saved' | 'provider.oauth-connected',
  tokens: TokenSet,
  source: TokenSource,
): Promise<void> {
  await deps.db.sequelize.transaction(async (transaction) => {
    await deps.tokenStore.save(tokens, source, transaction);
    await recordAudit(
      deps,
      actor,
      { action, target: TOKENS_TARGET, detail: tokensDetail(tokens, source) },
      transaction,
    );
  });
}

/** Manual token update (POST /api/tokens/update); the payload is already parsed with tokenUpdateSchema. */
export async function updateTokensManually(
  deps: TokenDeps,
  actor: AuditActor,
  input: TokenUpdateInput,
): Promise<TokenStatus> {
  const { accessToken, refreshToken, refreshTokenExpirySeconds } = input;
  const tokens = {
    accessToken,
    refreshToken,
    accessTokenExpiresAt: jwtExpiry(accessToken),
    refreshTokenExpiresAt:
      refreshTokenExpirySeconds === null
        ? null
        : new Date(deps.clock.now() + refreshTokenExpirySeconds * 1000),
  };
  await saveTokens(deps, actor, 'provider-tokens.saved', tokens, 'manual');
  return readTokenStatus(deps);
}

function refreshFailure(error: ProviderError): AppError {
  switch (error.kind) {
    case 'unreachable':
      return providerFailure(error);
    case 'unauthorized':
      return new AppError(
        'EXTERNAL_API_ERROR',
        m.tokens_refresh_token_refused({ reason: error.message.replace(/\.+$/, '') }),
        { status: 502 },
      );
    case 'not-connected':
      return new AppError('CONFLICT', m.tokens_none_stored());
    case 'bad-response':
      return new AppError('EXTERNAL_API_ERROR', m.tokens_provider_not_understood_answer(), {
        status: 502,
      });
  }
}

/**
 * The admin's Refresh Token button: one refresh grant now (shared with any refresh already under way).
 * The provider client stores the new tokens itself, so the entry follows the refresh that succeeded.
 */
export async function refreshTokensNow(deps: TokenDeps, actor: AuditActor): Promise<TokenStatus> {
  const stored = await deps.tokenStore.read();
  if (!stored?.refreshToken)
    throw new AppError('CONFLICT', m.tokens_no_refresh_token_stored_action());
  if (isPast(stored.refreshTokenExpiresAt, deps.clock.now()))
    throw new AppError('CONFLICT', m.tokens_refresh_token_expired_action());
  if (stored.reconnectRequired) throw new AppError('CONFLICT', CONNECTION_TEXTS.refreshRefused);
  try {
    await deps.oauthClient.refreshTokens();
  } catch (error) {
    if (error instanceof ProviderError) throw refreshFailure(error);
    throw error;
  }
  const status = await readTokenStatus(deps);
  const detail = { accessTokenExpiresAt: status.accessTokenExpiry ?? null };
  await recordAudit(deps, actor, {
    action: 'provider-tokens.refreshed',
    target: TOKENS_TARGET,
    detail,
  });
  return status;
}

function clearDetail(
  hadTokens: boolean,
  result: TokenClearResult,
): AuditDetails['provider-tokens.cleared'] {
  if (!hadTokens) return { outcome: 'none were stored' };
  if (result.revoked) return { outcome: 'revoked at the provider' };
  return {
    outcome: result.revocationError === null ? 'no revocation endpoint' : 'revocation failed',
  };
}

/**
 * Clear Tokens: the provider revokes them first when it has a token revocation endpoint; a
 * revocation that fails is reported, and the tokens are deleted all the same.
 */
export async function clearTokens(deps: TokenDeps, actor: AuditActor): Promise<TokenClearResult> {
  const stored = await deps.tokenStore.read();
  let result: TokenClearResult = { revoked: false, revocationError: null };
  if (stored) {
    try {
      result = { revoked: await revokeTokens(deps, stored), revocationError: null };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      result = { revoked: false, revocationError: error.message.slice(0, DESCRIPTION_MAX_LENGTH) };
    }
  }
  await deps.db.sequelize.transaction(async (transaction) => {
    await deps.tokenStore.clear(transaction);
    await recordAudit(
      deps,
      actor,
      {
        action: 'provider-tokens.cleared',
        target: TOKENS_TARGET,
        detail: clearDetail(stored !== null, result),
      },
      transaction,
    );
  });
  return result;
}

// The OAuth2 authorization code flow: started by an admin's session, finished on the callback page.

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** A fresh PKCE verifier and one-time state, kept for this session only; the browser gets the URL alone. */
export async function startOAuthAuthorization(
  deps: TokenDeps,
  sessionId: string,
): Promise<OAuthStart> {
  const { db, clock, keys } = deps;
  const now = clock.now();
  await db.models.OAuthAuthorization.destroy({ where: { expiresAt: { [Op.lte]: new Date(now) } } });
  const { authorizationUrl, codeVerifier, state } = await providerCall(() =>
    startAuthorization(deps),
  );
  const id = hashState(state);
  await db.models.OAuthAuthorization.create({
    id,
    sessionId,
    // Bound to its row: a verifier copied to another state does not decrypt.
    codeVerifier: encryptValue(keys.oauthAuthorizations, codeVerifier, `codeVerifier:${id}`),
    expiresAt: new Date(now + AUTHORIZATION_LIFETIME_MS),
  });
  return { authorizationUrl };
}

const failure = (error: string, description: string | null): OAuthPopupMessage => ({
  type: 'oauth2_error',
  error,
  error_description: description === null ? null : description.slice(0, DESCRIPTION_MAX_LENGTH),
});

/** Takes the session's pending authorization for `state` out of the store: each state is good once. */
async function claimCodeVerifier(
  { db, clock, keys }: TokenDeps,
  sessionId: string,
  state: string | null,
): Promise<string | null> {
  if (!state) return null;
  const id = hashState(state);
  const { OAuthAuthorization } = db.models;
  const pending = await OAuthAuthorization.findOne({ where: { id, sessionId } });
  if (!pending) return null;
  // Whoever deletes the row owns it; a replay racing this request finds nothing to delete.
  if ((await OAuthAuthorization.destroy({ where: { id, sessionId } })) !== 1) return null;
  if (pending.expiresAt.getTime() <= clock.now()) return null;
  return decryptValue(keys.oauthAuthorizations, pending.codeVerifier, `codeVerifier:${id}`);
}

/**
 * The provider sent the admin's browser back to the callback page: the state must be one this
 * session started and has not used, then the code is exchanged on the server and the tokens stored.
 * Answers the popup's message, with nothing secret in it.
 */
export async function completeOAuthAuthorization(
  deps: TokenDeps,
  actor: AuditActor,
  sessionId: string,
  callbackUrl: URL,
): Promise<OAuthPopupMessage> {
  const params = callbackUrl.searchParams;
  const codeVerifier = await claimCodeVerifier(deps, sessionId, params.get('state'));
  if (codeVerifier === null) return failure('invalid_state', m.tokens_state_refused());
  const providerError = params.get('error');
  if (providerError) return failure(providerError.slice(0, 100), params.get('error_description'));
  try {
    const tokens = await exchangeAuthorizationCode(
      deps,
      callbackUrl,
      codeVerifier,
      params.get('state')!,
    );
    await saveTokens(deps, actor, 'provider.oauth-connected', tokens, 'oauth2');
  } catch (error) {
    if (error instanceof ProviderError)
      return failure(
        error.kind === 'unreachable' ? 'temporarily_unavailable' : 'token_exchange_failed',
        error.message,
      );
    throw error;
  }
  const { source, accessTokenExpiry, refreshTokenExpiry } = await readTokenStatus(deps);
  return { type: 'oauth2_success', data: { source, accessTokenExpiry, refreshTokenExpiry } };
}
