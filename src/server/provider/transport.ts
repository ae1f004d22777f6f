/**
 * How the portal's requests to the provider travel: one time limit (PROVIDER_TIMEOUT_SECONDS),
 * plain http only where configured.
 */
import * as oauth from 'oauth4webapi';
import type { Config } from '../config';

export type TransportConfig = Pick<
  Config,
  'providerUrl' | 'providerIssuer' | 'providerTokenUrl' | 'providerTimeoutMs'
>;

/**
 * Per-request options of oauth4webapi: the provider's time limit, and plain http when the operator
 * configured a provider on http.
 */
export function transportOptions(config: TransportConfig) {
  return {
    signal: () => AbortSignal.timeout(config.providerTimeoutMs),
    // Marked deprecated to flag its risk; it is oauth4webapi's one switch for a provider on plain http.
    [oauth.allowInsecureRequests]: [
      config.providerUrl,
      config.providerIssuer,
      config.providerTokenUrl,
    ].some((url) => url?.startsWith('http:')),
  };
}

export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // fetch rejects with a plain TypeError when the connection fails (oauth4webapi's own TypeErrors carry
  // a code), and with the signal's reason on time-out.
  return (
    (error instanceof TypeError && !('code' in error)) ||
    error.name === 'TimeoutError' ||
    error.name === 'AbortError'
  );
}
