/**
 * The provider's authorization server as the portal knows it: from PROVIDER_ISSUER's metadata
 * (RFC 8414 first, then OpenID Connect Discovery), validated by oauth4webapi, with the configured
 * endpoints overriding it; or, without an issuer, from configuration alone. A failed discovery is
 * tried again in the background with growing pauses, so the portal connects once the server is up.
 */
import * as oauth from 'oauth4webapi';
import { config } from '../config';
import { ProviderError } from './contract';
import { isNetworkFailure, transportOptions } from './transport';

/** Pauses between discovery attempts after failures, in seconds; the last one repeats. */
const RETRY_PAUSES_SECONDS = [1, 2, 5, 10, 30, 60];

/** The configured endpoints win over the metadata's. */
function withOverrides(metadata: oauth.AuthorizationServer): oauth.AuthorizationServer {
  return {
    ...metadata,
    ...(config.providerAuthorizeUrl && { authorization_endpoint: config.providerAuthorizeUrl }),
    ...(config.providerTokenUrl && { token_endpoint: config.providerTokenUrl }),
    ...(config.providerRevocationUrl && { revocation_endpoint: config.providerRevocationUrl }),
  };
}

function configuredServer(): oauth.AuthorizationServer {
  return withOverrides({ issuer: config.providerUrl, code_challenge_methods_supported: ['S256'] });
}

/** RFC 8414's well-known URL first; a server that has none there may have OpenID's. */
async function fetchMetadata(issuer: URL): Promise<oauth.AuthorizationServer> {
  const rfc8414 = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...transportOptions() });
  if (rfc8414.status === 200) return oauth.processDiscoveryResponse(issuer, rfc8414);
  await rfc8414.body?.cancel();
  const openid = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...transportOptions() });
  if (openid.status >= 500) {
    await openid.body?.cancel();
    throw new ProviderError(`The provider's metadata endpoint answered ${openid.status}`, 'unreachable');
  }
  return oauth.processDiscoveryResponse(issuer, openid);
}

function discoveryFailure(error: unknown): ProviderError {
  if (isNetworkFailure(error)) return new ProviderError(`The provider's metadata at ${config.providerIssuer} could not be read`, 'unreachable');
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The provider's metadata at ${config.providerIssuer} is not usable: ${detail}`, 'bad-response');
}

let discovered: oauth.AuthorizationServer | null = null;
let attempt: Promise<oauth.AuthorizationServer> | null = null;
let lastFailure: ProviderError | null = null;
let failures = 0;
let retryTimer: NodeJS.Timeout | null = null;

function discover(): Promise<oauth.AuthorizationServer> {
  attempt ??= fetchMetadata(new URL(config.providerIssuer!))
    .then((metadata) => {
      discovered = withOverrides(metadata);
      if (failures > 0) console.log(`Provider metadata read from ${config.providerIssuer} after ${failures} failed attempts.`);
      lastFailure = null;
      return discovered;
    })
    .catch((error: unknown) => {
      lastFailure = discoveryFailure(error);
      const pause = RETRY_PAUSES_SECONDS[Math.min(failures, RETRY_PAUSES_SECONDS.length - 1)]!;
      if (failures === 0) console.error(`${lastFailure.message}; trying again, at most every ${RETRY_PAUSES_SECONDS.at(-1)} s.`);
      failures++;
      retryTimer ??= setTimeout(() => {
        retryTimer = null;
        discover().catch(() => undefined);
      }, pause * 1000).unref();
      throw lastFailure;
    })
    .finally(() => {
      attempt = null;
    });
  return attempt;
}

/**
 * The authorization server to talk to. While discovery keeps failing, callers get its last failure
 * at once (the background retries go on) instead of each waiting for a request of their own.
 */
export async function authorizationServer(): Promise<oauth.AuthorizationServer> {
  if (config.providerIssuer === null) return configuredServer();
  if (discovered) return discovered;
  if (attempt) return attempt;
  if (lastFailure && retryTimer) throw lastFailure;
  return discover();
}

/** At start: read the metadata now, so that the first admin or sync finds the server described. */
export function startProviderDiscovery(): void {
  if (config.providerIssuer !== null) authorizationServer().catch(() => undefined);
}
