/**
 * The sandbox's OAuth2 authorization server (docs/provider-api.md §1): its OAuth2 authorization server metadata, one
 * registered client (this portal), authorization codes with PKCE S256, HS256 JWT access tokens,
 * rotating refresh tokens and OAuth2 token revocation. Keys are derived from APP_SECRET, so tokens the
 * portal stored keep working after a restart. Refresh tokens carry their own expiry and MAC; the
 * sets of used and revoked ones are kept in memory.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { m } from '~/paraglide/messages.js';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { AppKeys } from '../../secrets';

const CODE_LIFETIME_MS = 60_000;
/** What the tokens grant. */
const SANDBOX_SCOPE = 'receipts';
/** Scopes a client may ask for: refresh tokens come with or without offline_access. */
const SCOPES_SUPPORTED: readonly string[] = [SANDBOX_SCOPE, 'offline_access'];

export const SANDBOX_PROVIDER_NAME = 'Sandbox Logistics';

/** The one registered client: this portal, with its callback page as redirect URI. */
export interface RegisteredClient {
  id: string;
  name: string;
  redirectUri: string;
  secret: string | null;
}

export type SandboxAuthorizationConfig = Pick<
  Config,
  | 'providerUrl'
  | 'providerClientId'
  | 'productName'
  | 'oauthRedirectUri'
  | 'providerClientSecret'
  | 'publicUrl'
  | 'sandboxAccessTokenSeconds'
  | 'sandboxRefreshTokenSeconds'
>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Compares in constant time, whatever the lengths. */
const sameText = (a: string, b: string) =>
  timingSafeEqual(Buffer.from(sha256(a)), Buffer.from(sha256(b)));

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  scope: string;
}

export type AuthorizationCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  /**
   * Unknown client or redirect URI: shown as an error page (in the reader's language), never
   * redirected to (an unchecked redirect would hand the code to anyone).
   */
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

function redirectWith(
  redirectUri: string,
  state: string | null,
  parameters: Record<string, string>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  if (state !== null) url.searchParams.set('state', state);
  return url.href;
}

interface IssuedCode {
  request: AuthorizationRequest;
  expiresAt: number;
}

export interface TokenAnswer {
  status: number;
  body: Record<string, string | number>;
  headers?: Record<string, string>;
}

function oauthError(
  error: string,
  description: string,
  status = 400,
  headers?: Record<string, string>,
): TokenAnswer {
  return { status, body: { error, error_description: description }, ...(headers && { headers }) };
}

export type BearerCheck = 'valid' | 'missing' | 'invalid';

export class SandboxAuthorizationServer {
  readonly client: RegisteredClient;
  private readonly issuer: string;
  private readonly audience: string;
  private readonly codes = new Map<string, IssuedCode>();
  /** Counts "revoke every access token issued so far" (the control endpoint's `revoke`). */
  private revocations = 0;
  /** Nonce → expiry (ms) of refresh tokens used or revoked. */
  private readonly usedRefreshTokens = new Map<string, number>();
  /** jti → expiry (ms) of access tokens revoked one by one. */
  private readonly revokedAccessTokens = new Map<string, number>();

  constructor(
    private readonly deps: {
      config: SandboxAuthorizationConfig;
      keys: Pick<AppKeys, 'sandboxAccessTokens' | 'sandboxRefreshTokens'>;
      clock: Clock;
    },
  ) {
    const { config } = deps;
    this.issuer = config.providerUrl;
    this.audience = `${config.providerUrl}/v1`;
    this.client = {
      id: config.providerClientId,
      name: config.productName,
      redirectUri: config.oauthRedirectUri,
      secret: config.providerClientSecret,
    };
  }

  /** The server's OAuth2 authorization server metadata, at /.well-known/oauth-authorization-server/sandbox. */
  metadata() {
    const authMethods =
      this.client.secret === null ? ['none'] : ['client_secret_basic', 'client_secret_post'];
    return {
      issuer: this.issuer,
      // The admin's browser reaches the consent page under PUBLIC_URL; servers reach the rest on loopback.
      authorization_endpoint: `${this.deps.config.publicUrl.origin}/sandbox/oauth/authorize`,
      token_endpoint: `${this.issuer}/oauth/token`,
      revocation_endpoint: `${this.issuer}/oauth/revoke`,
      scopes_supported: SCOPES_SUPPORTED,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: authMethods,
      revocation_endpoint_auth_methods_supported: authMethods,
    };
  }

  // The authorization endpoint.

  checkAuthorizationRequest(params: URLSearchParams): AuthorizationCheck {
    const clientId = single(params, 'client_id');
    if (!clientId || clientId !== this.client.id)
      return { kind: 'refused', message: m.sandbox_client_unknown() };
    const redirectUri = single(params, 'redirect_uri');
    if (!redirectUri || redirectUri !== this.client.redirectUri)
      return { kind: 'refused', message: m.sandbox_redirect_mismatch() };

    const state = single(params, 'state') ?? null;
    const fail = (error: string, description: string): AuthorizationCheck => ({
      kind: 'redirect',
      location: redirectWith(redirectUri, state, { error, error_description: description }),
    });
    const responseType = single(params, 'response_type');
    if (responseType !== 'code')
      return responseType
        ? fail('unsupported_response_type', 'Only response_type=code is supported')
        : fail('invalid_request', 'response_type is required');
    if (single(params, 'state') === undefined)
      return fail('invalid_request', 'state must be given once');
    if (single(params, 'code_challenge_method') !== 'S256')
      return fail('invalid_request', 'code_challenge_method must be S256');
    const codeChallenge = single(params, 'code_challenge');
    if (!codeChallenge || !CODE_CHALLENGE.test(codeChallenge))
      return fail(
        'invalid_request',
        'code_challenge must be a BASE64URL-encoded SHA-256 hash (43 characters)',
      );
    const scope = single(params, 'scope');
    if (
      scope === undefined ||
      (scope !== null && !scope.split(' ').every((name) => SCOPES_SUPPORTED.includes(name)))
    ) {
      return fail('invalid_scope', `The only scope is ${SANDBOX_SCOPE}`);
    }
    return {
      kind: 'valid',
      request: { clientId, redirectUri, codeChallenge, state, scope: SANDBOX_SCOPE },
    };
  }

  /** The user said yes: a single-use code for 60 seconds. The consent page and connectSandbox() both come here. */
  approveAuthorization(request: AuthorizationRequest): string {
    const now = this.deps.clock.now();
    for (const [code, issued] of this.codes) if (issued.expiresAt <= now) this.codes.delete(code);
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, { request, expiresAt: now + CODE_LIFETIME_MS });
    return redirectWith(request.redirectUri, request.state, { code });
  }

  denyAuthorization(request: AuthorizationRequest): string {
    return redirectWith(request.redirectUri, request.state, {
      error: 'access_denied',
      error_description: 'The user denied the authorization request',
    });
  }

  // The token endpoint.

  /** POST /oauth/token with its form and Authorization header: OAuth2's token answer or its error answer. */
  async answerTokenRequest(
    form: URLSearchParams,
    authorization: string | null,
  ): Promise<TokenAnswer> {
    for (const name of new Set(form.keys())) {
      if (form.getAll(name).length > 1)
        return oauthError('invalid_request', `${name} must be given once`);
    }
    const refused = this.authenticateClient(form, authorization);
    if (refused) return refused;
    const clientId = this.client.id;

    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code');
      const redirectUri = form.get('redirect_uri');
      const verifier = form.get('code_verifier');
      if (!code || !redirectUri || !verifier)
        return oauthError('invalid_request', 'code, redirect_uri and code_verifier are required');
      const issued = this.codes.get(code);
      this.codes.delete(code);
      if (
        !issued ||
        issued.expiresAt <= this.deps.clock.now() ||
        issued.request.clientId !== clientId
      )
        return oauthError(
          'invalid_grant',
          'The authorization code is invalid, expired or already used',
        );
      if (issued.request.redirectUri !== redirectUri)
        return oauthError('invalid_grant', 'redirect_uri does not match the authorization request');
      if (!CODE_VERIFIER.test(verifier) || sha256(verifier) !== issued.request.codeChallenge)
        return oauthError('invalid_grant', 'The code_verifier does not match the code_challenge');
      return this.issueTokens(clientId);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) return oauthError('invalid_request', 'refresh_token is required');
      if (!this.redeemRefreshToken(refreshToken, clientId))
        return oauthError('invalid_grant', 'The refresh token is invalid, expired or already used');
      return this.issueTokens(clientId);
    }
    return grantType
      ? oauthError('unsupported_grant_type', `grant_type ${grantType} is not supported`)
      : oauthError('invalid_request', 'grant_type is required');
  }

  /** POST /oauth/revoke (OAuth2 token revocation): an unknown or already invalid token is no error. */
  async answerRevocationRequest(
    form: URLSearchParams,
    authorization: string | null,
  ): Promise<TokenAnswer> {
    for (const name of new Set(form.keys())) {
      if (form.getAll(name).length > 1)
        return oauthError('invalid_request', `${name} must be given once`);
    }
    const refused = this.authenticateClient(form, authorization);
    if (refused) return refused;
    const token = form.get('token');
    if (!token) return oauthError('invalid_request', 'token is required');
    if (!this.redeemRefreshToken(token, this.client.id)) await this.revokeAccessToken(token);
    return { status: 200, body: {} };
  }

  /** Every access token issued so far stops working (the control endpoint's `revoke`). */
  revokeAccessTokens(): void {
    this.revocations++;
  }

  // The resource server.

  async checkBearerToken(authorization: string | null): Promise<BearerCheck> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) return 'missing';
    try {
      const { payload } = await this.verifyAccessToken(match[1]!);
      return payload['rev'] === this.revocations &&
        !(payload.jti && this.revokedAccessTokens.has(payload.jti))
        ? 'valid'
        : 'invalid';
    } catch {
      return 'invalid';
    }
  }

  private verifyAccessToken(token: string) {
    return jwtVerify(token, this.deps.keys.sandboxAccessTokens, {
      issuer: this.issuer,
      audience: this.audience,
      algorithms: ['HS256'],
      typ: 'at+jwt',
      currentDate: new Date(this.deps.clock.now()),
    });
  }

  /** OAuth2 client authentication: client_id in the body, or HTTP Basic; a secret when the client has one. */
  private authenticateClient(
    form: URLSearchParams,
    authorization: string | null,
  ): TokenAnswer | null {
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString();
      const colon = decoded.indexOf(':');
      if (colon < 0 || secret !== null)
        return oauthError('invalid_request', 'Use one client authentication method');
      // Both parts are form-encoded first, as OAuth2's HTTP Basic asks.
      const formDecoded = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
      const basicId = formDecoded(decoded.slice(0, colon));
      if (id !== null && id !== basicId)
        return oauthError('invalid_client', 'Client authentication failed', 401, {
          'WWW-Authenticate': 'Basic realm="sandbox"',
        });
      id = basicId;
      secret = formDecoded(decoded.slice(colon + 1));
    }
    const refused = oauthError(
      'invalid_client',
      'Client authentication failed',
      401,
      basic ? { 'WWW-Authenticate': 'Basic realm="sandbox"' } : undefined,
    );
    if (id === null || !sameText(id, this.client.id)) return refused;
    if (this.client.secret !== null && (secret === null || !sameText(secret, this.client.secret)))
      return refused;
    return null;
  }

  private refreshMac(clientId: string, payload: string): string {
    return createHmac('sha256', this.deps.keys.sandboxRefreshTokens)
      .update(`${clientId}\n${payload}`)
      .digest('base64url');
  }

  private issueRefreshToken(clientId: string, expiresAtSeconds: number): string {
    const payload = `${randomBytes(32).toString('base64url')}.${expiresAtSeconds.toString(36)}`;
    return `${payload}.${this.refreshMac(clientId, payload)}`;
  }

  /**
   * True once per valid refresh token of this client: rotation makes every token single-use, and
   * revocation uses it up.
   */
  private redeemRefreshToken(token: string, clientId: string): boolean {
    const [nonce, expiry, mac, ...rest] = token.split('.');
    if (!nonce || !expiry || !mac || rest.length > 0) return false;
    if (!sameText(mac, this.refreshMac(clientId, `${nonce}.${expiry}`))) return false;
    const expiresAt = parseInt(expiry, 36) * 1000;
    const now = this.deps.clock.now();
    if (!(expiresAt > now) || this.usedRefreshTokens.has(nonce)) return false;
    for (const [used, until] of this.usedRefreshTokens)
      if (until <= now) this.usedRefreshTokens.delete(used);
    this.usedRefreshTokens.set(nonce, expiresAt);
    return true;
  }

  private async revokeAccessToken(token: string): Promise<void> {
    try {
      const { payload } = await this.verifyAccessToken(token);
      const now = this.deps.clock.now();
      for (const [jti, until] of this.revokedAccessTokens)
        if (until <= now) this.revokedAccessTokens.delete(jti);
      if (payload.jti && payload.exp) this.revokedAccessTokens.set(payload.jti, payload.exp * 1000);
    } catch {
      // Not one of ours, or expired: nothing to revoke.
    }
  }

  private async issueTokens(clientId: string): Promise<TokenAnswer> {
    const { config, keys, clock } = this.deps;
    const now = Math.floor(clock.now() / 1000);
    const accessToken = await new SignJWT({ scope: SANDBOX_SCOPE, rev: this.revocations })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setSubject(clientId)
      .setAudience(this.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + config.sandboxAccessTokenSeconds)
      .setJti(randomUUID())
      .sign(keys.sandboxAccessTokens);
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: config.sandboxAccessTokenSeconds,
        refresh_token: this.issueRefreshToken(clientId, now + config.sandboxRefreshTokenSeconds),
        refresh_token_expires_in: config.sandboxRefreshTokenSeconds,
        scope: SANDBOX_SCOPE,
      },
    };
  }
}
