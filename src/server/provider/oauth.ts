/**
 * The portal as an OAuth2 client of the provider (authorization code + PKCE S256, refresh grant),
 * on oauth4webapi. The authorization server is described from configuration: no discovery.
 */
import * as oauth from 'oauth4webapi';
import { API_TIMEOUT_MS } from '~/shared/constants';
import { config } from '../config';
import { ProviderError, type TokenSet } from './contract';

export const PROVIDER_SCOPE = 'receipts';

const authorizationServer: oauth.AuthorizationServer = {
  issuer: config.providerUrl,
  authorization_endpoint: config.providerAuthorizeUrl,
  token_endpoint: config.providerTokenUrl,
  code_challenge_methods_supported: ['S256'],
};

const client: oauth.Client = { client_id: config.providerClientId };
const clientAuth = config.providerClientSecret ? oauth.ClientSecretPost(config.providerClientSecret) : oauth.None();

/** Per-request transport options: the API timeout, and plain http for the sandbox or a local provider. */
export function transportOptions() {
  return {
    signal: () => AbortSignal.timeout(API_TIMEOUT_MS),
    [oauth.allowInsecureRequests]: [config.providerUrl, config.providerTokenUrl].some((url) => url.startsWith('http:')),
  };
}

export interface AuthorizationStart {
  /** Where to send the admin's browser. */
  authorizationUrl: string;
  /** Kept on the server until the callback, never sent to the browser. */
  codeVerifier: string;
  state: string;
}

export async function startAuthorization(): Promise<AuthorizationStart> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(config.providerAuthorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.providerClientId);
  url.searchParams.set('redirect_uri', config.oauthRedirectUri);
  url.searchParams.set('scope', PROVIDER_SCOPE);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  return { authorizationUrl: url.href, codeVerifier, state };
}

/**
 * Checks the callback (state, error) and exchanges its code for tokens. A refusal by the user or the
 * provider is a ProviderError of kind 'unauthorized' whose message is the provider's description.
 */
export async function exchangeAuthorizationCode(callback: URL | URLSearchParams, codeVerifier: string, expectedState: string): Promise<TokenSet> {
  try {
    const parameters = oauth.validateAuthResponse(authorizationServer, client, callback, expectedState);
    const response = await oauth.authorizationCodeGrantRequest(authorizationServer, client, clientAuth, parameters, config.oauthRedirectUri, codeVerifier, transportOptions());
    refuseServerFailure(response);
    return tokenSetOf(await oauth.processAuthorizationCodeResponse(authorizationServer, client, response));
  } catch (error) {
    throw asProviderError(error);
  }
}

/** One refresh grant. `refreshToken` of the answer is null when the provider did not rotate it. */
export async function requestTokenRefresh(refreshToken: string): Promise<TokenSet> {
  try {
    const response = await oauth.refreshTokenGrantRequest(authorizationServer, client, clientAuth, refreshToken, transportOptions());
    refuseServerFailure(response);
    return tokenSetOf(await oauth.processRefreshTokenResponse(authorizationServer, client, response));
  } catch (error) {
    throw asProviderError(error);
  }
}

function refuseServerFailure(response: Response): void {
  if (response.status >= 500) throw new ProviderError(`The provider's token endpoint answered ${response.status}`, 'unreachable');
}

const secondsFromNow = (seconds: unknown) =>
  typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? new Date(Date.now() + seconds * 1000) : null;

function tokenSetOf(answer: oauth.TokenEndpointResponse): TokenSet {
  const refreshToken = answer.refresh_token ?? null;
  return {
    accessToken: answer.access_token,
    refreshToken,
    accessTokenExpiresAt: secondsFromNow(answer.expires_in),
    refreshTokenExpiresAt: refreshToken === null ? null : secondsFromNow(answer['refresh_token_expires_in']),
  };
}

/** Network failures and time-outs are 'unreachable'; refusals 'unauthorized'; anything odd 'bad-response'. */
export function asProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError) {
    return new ProviderError(error.error_description || error.error, 'unauthorized');
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) return new ProviderError('The provider refused the client', 'unauthorized');
  if (isNetworkFailure(error)) return new ProviderError('The provider could not be reached', 'unreachable');
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The provider's answer was not understood: ${detail}`, 'bad-response');
}

export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // fetch rejects with a plain TypeError when the connection fails (oauth4webapi's own TypeErrors carry
  // a code), and with the signal's reason on time-out.
  return (error instanceof TypeError && !('code' in error)) || error.name === 'TimeoutError' || error.name === 'AbortError';
}
