/**
 * The portal as an OAuth2 client of the provider (authorization code + PKCE S256, refresh grant,
 * OAuth2 token revocation), on oauth4webapi. The server's endpoints come from discovery.ts.
 */
import * as oauth from 'oauth4webapi';
import { m } from '~/paraglide/messages.js';
import type { Clock } from '../clock';
import type { Config, TokenAuthMethod } from '../config';
import { ProviderError, type TokenSet } from './contract';
import type { ProviderDiscovery } from './discovery';
import { isNetworkFailure, transportOptions } from './transport';

type ClientConfig = Pick<
  Config,
  | 'providerClientId'
  | 'providerClientSecret'
  | 'providerTokenAuth'
  | 'oauthRedirectUri'
  | 'providerScope'
  | 'providerUrl'
  | 'providerIssuer'
  | 'providerTokenUrl'
  | 'providerTimeoutMs'
>;

/** What the portal needs to act as the provider's OAuth2 client. */
export interface OAuthDeps {
  config: ClientConfig;
  discovery: Pick<ProviderDiscovery, 'authorizationServer'>;
  clock: Clock;
}

const clientOf = (config: ClientConfig): oauth.Client => ({ client_id: config.providerClientId });

/**
 * PROVIDER_TOKEN_AUTH, else with a secret the method the server supports, client_secret_basic first
 * (a server whose metadata lists none supports client_secret_basic).
 */
export function tokenAuthMethod(
  config: Pick<Config, 'providerTokenAuth' | 'providerClientSecret'>,
  supported: string[] | undefined,
): TokenAuthMethod {
  if (config.providerTokenAuth) return config.providerTokenAuth;
  if (config.providerClientSecret === null) return 'none';
  const methods = supported ?? ['client_secret_basic'];
  return methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
    ? 'client_secret_basic'
    : 'client_secret_post';
}

function clientAuthentication(
  config: ClientConfig,
  as: oauth.AuthorizationServer,
): oauth.ClientAuth {
  switch (tokenAuthMethod(config, as.token_endpoint_auth_methods_supported)) {
    case 'client_secret_basic':
      return oauth.ClientSecretBasic(config.providerClientSecret!);
    case 'client_secret_post':
      return oauth.ClientSecretPost(config.providerClientSecret!);
    case 'none':
      return oauth.None();
  }
}

export interface AuthorizationStart {
  /** Where to send the admin's browser. */
  authorizationUrl: string;
  /** Kept on the server until the callback, never sent to the browser. */
  codeVerifier: string;
  state: string;
}

export async function startAuthorization({
  config,
  discovery,
}: OAuthDeps): Promise<AuthorizationStart> {
  const as = await discovery.authorizationServer();
  if (!as.authorization_endpoint)
    throw new ProviderError(m.tokens_provider_no_authorization_endpoint(), 'bad-response');
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.providerClientId);
  url.searchParams.set('redirect_uri', config.oauthRedirectUri);
  url.searchParams.set('scope', config.providerScope);
  // OpenID servers grant offline_access only with consent asked for (OIDC Core §11); OAuth2 servers ignore prompt.
  if (config.providerScope.split(' ').includes('offline_access'))
    url.searchParams.set('prompt', 'consent');
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  return { authorizationUrl: url.href, codeVerifier, state };
}

/**
 * Checks the callback (state, error, `iss` when the server sends it) and exchanges its code for
 * tokens. A refusal by the user or the provider is a ProviderError of kind 'unauthorized' whose
 * message is the provider's description.
 */
export async function exchangeAuthorizationCode(
  deps: OAuthDeps,
  callback: URL | URLSearchParams,
  codeVerifier: string,
  expectedState: string,
): Promise<TokenSet> {
  const { config, discovery, clock } = deps;
  const client = clientOf(config);
  try {
    const as = await discovery.authorizationServer();
    const parameters = oauth.validateAuthResponse(as, client, callback, expectedState);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuthentication(config, as),
      parameters,
      config.oauthRedirectUri,
      codeVerifier,
      transportOptions(config),
    );
    refuseServerFailure(response);
    return tokenSetOf(clock, await oauth.processAuthorizationCodeResponse(as, client, response));
  } catch (error) {
    throw asProviderError(error);
  }
}

/** One refresh grant. `refreshToken` of the answer is null when the provider did not rotate it. */
export async function requestTokenRefresh(
  { config, discovery, clock }: OAuthDeps,
  refreshToken: string,
): Promise<TokenSet> {
  const client = clientOf(config);
  try {
    const as = await discovery.authorizationServer();
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client,
      clientAuthentication(config, as),
      refreshToken,
      transportOptions(config),
    );
    refuseServerFailure(response);
    return tokenSetOf(clock, await oauth.processRefreshTokenResponse(as, client, response));
  } catch (error) {
    throw asProviderError(error);
  }
}

/**
 * Revokes the tokens at the provider (OAuth2 token revocation), the refresh token first: with it the server ends
 * the grant. Resolves false when the provider has no revocation endpoint.
 */
export async function revokeTokens(
  { config, discovery }: OAuthDeps,
  tokens: { accessToken: string | null; refreshToken: string | null },
): Promise<boolean> {
  const client = clientOf(config);
  try {
    const as = await discovery.authorizationServer();
    if (!as.revocation_endpoint) return false;
    const revocations: Array<[string | null, 'refresh_token' | 'access_token']> = [
      [tokens.refreshToken, 'refresh_token'],
      [tokens.accessToken, 'access_token'],
    ];
    for (const [token, hint] of revocations) {
      if (token === null) continue;
      const response = await oauth.revocationRequest(
        as,
        client,
        clientAuthentication(config, as),
        token,
        {
          additionalParameters: { token_type_hint: hint },
          ...transportOptions(config),
        },
      );
      refuseServerFailure(response);
      await oauth.processRevocationResponse(response);
    }
    return true;
  } catch (error) {
    throw asProviderError(error);
  }
}

function refuseServerFailure(response: Response): void {
  if (response.status >= 500)
    throw new ProviderError(
      m.tokens_provider_answered({ status: String(response.status) }),
      'unreachable',
    );
}

function tokenSetOf(clock: Clock, answer: oauth.TokenEndpointResponse): TokenSet {
  const secondsFromNow = (seconds: unknown) =>
    typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
      ? new Date(clock.now() + seconds * 1000)
      : null;
  const refreshToken = answer.refresh_token ?? null;
  return {
    accessToken: answer.access_token,
    refreshToken,
    accessTokenExpiresAt: secondsFromNow(answer.expires_in),
    // An extension (docs/provider-api.md): most servers do not say.
    refreshTokenExpiresAt:
      refreshToken === null ? null : secondsFromNow(answer['refresh_token_expires_in']),
  };
}

/**
 * Network failures and time-outs are 'unreachable'; refusals 'unauthorized' with the OAuth2 error
 * code; anything odd 'bad-response'.
 */
export function asProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (
    error instanceof oauth.AuthorizationResponseError ||
    error instanceof oauth.ResponseBodyError
  ) {
    return new ProviderError(error.error_description || error.error, 'unauthorized', error.error);
  }
  // A 401 with a challenge: the server refused the client's authentication.
  if (error instanceof oauth.WWWAuthenticateChallengeError)
    return new ProviderError(m.tokens_provider_refused_client(), 'unauthorized', 'invalid_client');
  if (isNetworkFailure(error))
    return new ProviderError(m.tokens_provider_unreachable(), 'unreachable');
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError(m.tokens_provider_not_understood({ detail }), 'bad-response');
}
