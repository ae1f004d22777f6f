/**
 * The sandbox's OAuth2 authorization server (docs/provider-api.md §1): its metadata (RFC 8414), one
 * registered client (this portal), authorization codes with PKCE S256, HS256 JWT access tokens,
 * rotating refresh tokens and revocation (RFC 7009). Keys are derived from APP_SECRET, so tokens the
 * portal stored keep working after a restart. Refresh tokens carry their own expiry and MAC; the
 * sets of used and revoked ones are kept in memory.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { m } from '~/paraglide/messages.js';
import { config } from '../../config';
import { deriveKey } from '../../encryption';
import { loadAppSecret } from '../../secrets';

const CODE_LIFETIME_MS = 60_000;
const ISSUER = config.providerUrl;
const AUDIENCE = `${config.providerUrl}/v1`;
/** What the tokens grant. */
const SANDBOX_SCOPE = 'receipts';
/** Scopes a client may ask for: refresh tokens come with or without offline_access. */
const SCOPES_SUPPORTED = [SANDBOX_SCOPE, 'offline_access'];

export const SANDBOX_PROVIDER_NAME = 'Sandbox Logistics';

/** The one registered client: this portal, with its callback page as redirect URI. */
export const registeredClient = {
  id: config.providerClientId,
  name: config.productName,
  redirectUri: config.oauthRedirectUri,
  secret: config.providerClientSecret,
};

let keys: { access: Buffer; refresh: Buffer } | undefined;
function signingKeys() {
  if (keys) return keys;
  const secret = loadAppSecret();
  return (keys = { access: deriveKey(secret, 'sandbox-access-tokens'), refresh: deriveKey(secret, 'sandbox-refresh-tokens') });
}

/** The server's metadata (RFC 8414), at /.well-known/oauth-authorization-server/sandbox. */
export function sandboxMetadata() {
  const authMethods = registeredClient.secret === null ? ['none'] : ['client_secret_basic', 'client_secret_post'];
  return {
    issuer: ISSUER,
    // The admin's browser reaches the consent page under PUBLIC_URL; servers reach the rest on loopback.
    authorization_endpoint: `${config.publicUrl.origin}/sandbox/oauth/authorize`,
    token_endpoint: `${ISSUER}/oauth/token`,
    revocation_endpoint: `${ISSUER}/oauth/revoke`,
    scopes_supported: SCOPES_SUPPORTED,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Compares in constant time, whatever the lengths. */
const sameText = (a: string, b: string) => timingSafeEqual(Buffer.from(sha256(a)), Buffer.from(sha256(b)));

// The authorization endpoint.

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  scope: string;
}

export type AuthorizationCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  /** Unknown client or redirect URI: shown as an error page (in the reader's language), never redirected to (RFC 6749 §4.1.2.1). */
  | { kind: 'refused'; message: string }
  /** Any other fault goes back to the client as an error response. */
  | { kind: 'redirect'; location: string };

const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function single(params: URLSearchParams, name: string): string | null | undefined {
  const values = params.getAll(name);
  if (values.length > 1) return undefined;
  return values[0] ?? null;
}

function redirectWith(redirectUri: string, state: string | null, parameters: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  if (state !== null) url.searchParams.set('state', state);
  return url.href;
}

export function checkAuthorizationRequest(params: URLSearchParams): AuthorizationCheck {
  const clientId = single(params, 'client_id');
  if (!clientId || clientId !== registeredClient.id) return { kind: 'refused', message: m.sandbox_client_unknown() };
  const redirectUri = single(params, 'redirect_uri');
  if (!redirectUri || redirectUri !== registeredClient.redirectUri) return { kind: 'refused', message: m.sandbox_redirect_mismatch() };

  const state = single(params, 'state') ?? null;
  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    location: redirectWith(redirectUri, state, { error, error_description: description }),
  });
  const responseType = single(params, 'response_type');
  if (responseType !== 'code') return responseType ? fail('unsupported_response_type', 'Only response_type=code is supported') : fail('invalid_request', 'response_type is required');
  if (single(params, 'state') === undefined) return fail('invalid_request', 'state must be given once');
  if (single(params, 'code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  const codeChallenge = single(params, 'code_challenge');
  if (!codeChallenge || !CODE_CHALLENGE.test(codeChallenge)) return fail('invalid_request', 'code_challenge must be a BASE64URL-encoded SHA-256 hash (43 characters)');
  const scope = single(params, 'scope');
  if (scope === undefined || (scope !== null && !scope.split(' ').every((name) => SCOPES_SUPPORTED.includes(name)))) {
    return fail('invalid_scope', `The only scope is ${SANDBOX_SCOPE}`);
  }
  return { kind: 'valid', request: { clientId, redirectUri, codeChallenge, state, scope: SANDBOX_SCOPE } };
}

interface IssuedCode {
  request: AuthorizationRequest;
  expiresAt: number;
}

const codes = new Map<string, IssuedCode>();

/** The user said yes: a single-use code for 60 seconds. The consent page and connectSandbox() both come here. */
export function approveAuthorization(request: AuthorizationRequest): string {
  const now = Date.now();
  for (const [code, issued] of codes) if (issued.expiresAt <= now) codes.delete(code);
  const code = randomBytes(32).toString('base64url');
  codes.set(code, { request, expiresAt: now + CODE_LIFETIME_MS });
  return redirectWith(request.redirectUri, request.state, { code });
}

export function denyAuthorization(request: AuthorizationRequest): string {
  return redirectWith(request.redirectUri, request.state, { error: 'access_denied', error_description: 'The user denied the authorization request' });
}

// The token endpoint.

export interface TokenAnswer {
  status: number;
  body: Record<string, string | number>;
  headers?: Record<string, string>;
}

function oauthError(error: string, description: string, status = 400, headers?: Record<string, string>): TokenAnswer {
  return { status, body: { error, error_description: description }, ...(headers && { headers }) };
}

/** RFC 6749 §2.3: client_id in the body, or HTTP Basic; a secret when the client has one. */
function authenticateClient(form: URLSearchParams, authorization: string | null): TokenAnswer | null {
  let id = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString();
    const colon = decoded.indexOf(':');
    if (colon < 0 || secret !== null) return oauthError('invalid_request', 'Use one client authentication method');
    // Both parts are form-encoded first (RFC 6749 §2.3.1).
    const formDecoded = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    const basicId = formDecoded(decoded.slice(0, colon));
    if (id !== null && id !== basicId) return oauthError('invalid_client', 'Client authentication failed', 401, { 'WWW-Authenticate': 'Basic realm="sandbox"' });
    id = basicId;
    secret = formDecoded(decoded.slice(colon + 1));
  }
  const refused = oauthError('invalid_client', 'Client authentication failed', 401, basic ? { 'WWW-Authenticate': 'Basic realm="sandbox"' } : undefined);
  if (id === null || !sameText(id, registeredClient.id)) return refused;
  if (registeredClient.secret !== null && (secret === null || !sameText(secret, registeredClient.secret))) return refused;
  return null;
}

let revocations = 0;

/** Every access token issued so far stops working (the control endpoint's `revoke`). */
export function revokeAccessTokens(): void {
  revocations++;
}

const usedRefreshTokens = new Map<string, number>();

function issueRefreshToken(clientId: string, expiresAtSeconds: number): string {
  const payload = `${randomBytes(32).toString('base64url')}.${expiresAtSeconds.toString(36)}`;
  return `${payload}.${refreshMac(clientId, payload)}`;
}

const refreshMac = (clientId: string, payload: string) => createHmac('sha256', signingKeys().refresh).update(`${clientId}\n${payload}`).digest('base64url');

/** True once per valid refresh token of this client: rotation makes every token single-use, and revocation uses it up. */
function redeemRefreshToken(token: string, clientId: string): boolean {
  const [nonce, expiry, mac, ...rest] = token.split('.');
  if (!nonce || !expiry || !mac || rest.length > 0) return false;
  if (!sameText(mac, refreshMac(clientId, `${nonce}.${expiry}`))) return false;
  const expiresAt = parseInt(expiry, 36) * 1000;
  const now = Date.now();
  if (!(expiresAt > now) || usedRefreshTokens.has(nonce)) return false;
  for (const [used, until] of usedRefreshTokens) if (until <= now) usedRefreshTokens.delete(used);
  usedRefreshTokens.set(nonce, expiresAt);
  return true;
}

/** jti → expiry (ms) of access tokens revoked one by one. */
const revokedAccessTokens = new Map<string, number>();

async function revokeAccessToken(token: string): Promise<void> {
  try {
    const { payload } = await jwtVerify(token, signingKeys().access, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], typ: 'at+jwt' });
    const now = Date.now();
    for (const [jti, until] of revokedAccessTokens) if (until <= now) revokedAccessTokens.delete(jti);
    if (payload.jti && payload.exp) revokedAccessTokens.set(payload.jti, payload.exp * 1000);
  } catch {
    // Not one of ours, or expired: nothing to revoke.
  }
}

/** POST /oauth/revoke (RFC 7009 §2): an unknown or already invalid token is no error. */
export async function answerRevocationRequest(form: URLSearchParams, authorization: string | null): Promise<TokenAnswer> {
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return oauthError('invalid_request', `${name} must be given once`);
  }
  const refused = authenticateClient(form, authorization);
  if (refused) return refused;
  const token = form.get('token');
  if (!token) return oauthError('invalid_request', 'token is required');
  if (!redeemRefreshToken(token, registeredClient.id)) await revokeAccessToken(token);
  return { status: 200, body: {} };
}

async function issueTokens(clientId: string): Promise<TokenAnswer> {
  const now = Math.floor(Date.now() / 1000);
  const accessToken = await new SignJWT({ scope: SANDBOX_SCOPE, rev: revocations })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setSubject(clientId)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + config.sandboxAccessTokenSeconds)
    .setJti(randomUUID())
    .sign(signingKeys().access);
  return {
    status: 200,
    body: {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: config.sandboxAccessTokenSeconds,
      refresh_token: issueRefreshToken(clientId, now + config.sandboxRefreshTokenSeconds),
      refresh_token_expires_in: config.sandboxRefreshTokenSeconds,
      scope: SANDBOX_SCOPE,
    },
  };
}

/** POST /oauth/token with its form and Authorization header: the answer of RFC 6749 §5.1 or §5.2. */
export async function answerTokenRequest(form: URLSearchParams, authorization: string | null): Promise<TokenAnswer> {
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return oauthError('invalid_request', `${name} must be given once`);
  }
  const refused = authenticateClient(form, authorization);
  if (refused) return refused;
  const clientId = registeredClient.id;

  const grantType = form.get('grant_type');
  if (grantType === 'authorization_code') {
    const code = form.get('code');
    const redirectUri = form.get('redirect_uri');
    const verifier = form.get('code_verifier');
    if (!code || !redirectUri || !verifier) return oauthError('invalid_request', 'code, redirect_uri and code_verifier are required');
    const issued = codes.get(code);
    codes.delete(code);
    if (!issued || issued.expiresAt <= Date.now() || issued.request.clientId !== clientId) return oauthError('invalid_grant', 'The authorization code is invalid, expired or already used');
    if (issued.request.redirectUri !== redirectUri) return oauthError('invalid_grant', 'redirect_uri does not match the authorization request');
    if (!CODE_VERIFIER.test(verifier) || sha256(verifier) !== issued.request.codeChallenge) return oauthError('invalid_grant', 'The code_verifier does not match the code_challenge');
    return issueTokens(clientId);
  }
  if (grantType === 'refresh_token') {
    const refreshToken = form.get('refresh_token');
    if (!refreshToken) return oauthError('invalid_request', 'refresh_token is required');
    if (!redeemRefreshToken(refreshToken, clientId)) return oauthError('invalid_grant', 'The refresh token is invalid, expired or already used');
    return issueTokens(clientId);
  }
  return grantType ? oauthError('unsupported_grant_type', `grant_type ${grantType} is not supported`) : oauthError('invalid_request', 'grant_type is required');
}

// The resource server.

export type BearerCheck = 'valid' | 'missing' | 'invalid';

export async function checkBearerToken(authorization: string | null): Promise<BearerCheck> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return 'missing';
  try {
    const { payload } = await jwtVerify(match[1]!, signingKeys().access, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], typ: 'at+jwt' });
    return payload['rev'] === revocations && !(payload.jti && revokedAccessTokens.has(payload.jti)) ? 'valid' : 'invalid';
  } catch {
    return 'invalid';
  }
}
