/**
 * The provider's authorization server as the portal knows it: from PROVIDER_ISSUER's metadata
 * (OAuth2 authorization server metadata first, then OpenID Connect Discovery), validated by
 * oauth4webapi, with the configured endpoints overriding it; or, without an issuer, from
 * configuration alone. A failed discovery is tried again in the background with growing pauses, so
 * the portal connects once the server is up.
 */
import * as oauth from 'oauth4webapi';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { ProviderError } from './contract';
import { isNetworkFailure, transportOptions, type TransportConfig } from './transport';

export type DiscoveryConfig = TransportConfig &
  Pick<Config, 'providerAuthorizeUrl' | 'providerRevocationUrl'>;

/** Pauses between discovery attempts after failures, in seconds; the last one repeats. */
const RETRY_PAUSES_SECONDS = [1, 2, 5, 10, 30, 60];

/** The configured endpoints win over the metadata's. */
function withOverrides(
  config: DiscoveryConfig,
  metadata: oauth.AuthorizationServer,
): oauth.AuthorizationServer {
  return {
    ...metadata,
    ...(config.providerAuthorizeUrl && { authorization_endpoint: config.providerAuthorizeUrl }),
    ...(config.providerTokenUrl && { token_endpoint: config.providerTokenUrl }),
    ...(config.providerRevocationUrl && { revocation_endpoint: config.providerRevocationUrl }),
  };
}

/** OAuth2's authorization server metadata URL first; a server that has none there may have OpenID's. */
async function fetchMetadata(
  config: DiscoveryConfig,
  issuer: URL,
): Promise<oauth.AuthorizationServer> {
  const metadata = await oauth.discoveryRequest(issuer, {
    algorithm: 'oauth2',
    ...transportOptions(config),
  });
  if (metadata.status === 200) return oauth.processDiscoveryResponse(issuer, metadata);
  await metadata.body?.cancel();
  const openid = await oauth.discoveryRequest(issuer, {
    algorithm: 'oidc',
    ...transportOptions(config),
  });
  if (openid.status >= 500) {
    await openid.body?.cancel();
    throw new ProviderError(
      `The provider's metadata endpoint answered ${openid.status}`,
      'unreachable',
    );
  }
  return oauth.processDiscoveryResponse(issuer, openid);
}

function discoveryFailure(issuer: string, error: unknown): ProviderError {
  if (isNetworkFailure(error))
    return new ProviderError(
      `The provider's metadata at ${issuer} could not be read`,
      'unreachable',
    );
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError(
    `The provider's metadata at ${issuer} is not usable: ${detail}`,
    'bad-response',
  );
}

export class ProviderDiscovery {
  private discovered: oauth.AuthorizationServer | null = null;
  private attempt: Promise<oauth.AuthorizationServer> | null = null;
  private lastFailure: ProviderError | null = null;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: DiscoveryConfig,
    private readonly log: Logger,
  ) {}

  /**
   * The authorization server to talk to. While discovery keeps failing, callers get its last failure
   * at once (the background retries go on) instead of each waiting for a request of their own.
   */
  async authorizationServer(): Promise<oauth.AuthorizationServer> {
    if (this.config.providerIssuer === null)
      return withOverrides(this.config, {
        issuer: this.config.providerUrl,
        code_challenge_methods_supported: ['S256'],
      });
    if (this.discovered) return this.discovered;
    if (this.attempt) return this.attempt;
    if (this.lastFailure && this.retryTimer) throw this.lastFailure;
    return this.discover(this.config.providerIssuer);
  }

  /** At start: read the metadata now, so that the first admin or sync finds the server described. */
  start(): void {
    if (this.config.providerIssuer !== null) this.authorizationServer().catch(() => undefined);
  }

  /** Shutdown: no more retries. */
  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private discover(issuer: string): Promise<oauth.AuthorizationServer> {
    this.attempt ??= fetchMetadata(this.config, new URL(issuer))
      .then((metadata) => {
        this.discovered = withOverrides(this.config, metadata);
        if (this.failures > 0)
          this.log.info(
            { component: 'provider' },
            `Provider metadata read from ${issuer} after ${this.failures} failed attempts.`,
          );
        this.lastFailure = null;
        return this.discovered;
      })
      .catch((error: unknown) => {
        const failure = discoveryFailure(issuer, error);
        this.lastFailure = failure;
        const pause =
          RETRY_PAUSES_SECONDS[Math.min(this.failures, RETRY_PAUSES_SECONDS.length - 1)]!;
        if (this.failures === 0)
          this.log.error(
            { component: 'provider' },
            `${failure.message}; trying again, at most every ${RETRY_PAUSES_SECONDS.at(-1)} s.`,
          );
        this.failures++;
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = null;
          this.discover(issuer).catch(() => undefined);
        }, pause * 1000).unref();
        throw failure;
      })
      .finally(() => {
        this.attempt = null;
      });
    return this.attempt;
  }
}
