/**
 * The portal connects itself to its built-in sandbox: the sandbox grants consent to the portal's
 * own authorization request (as the Authorize button does), and the code is exchanged over real
 * HTTP like any other provider's. Call it once the server is listening: the token exchange is a
 * request to this very process.
 */
import { ProviderError } from '../contract';
import { exchangeAuthorizationCode, startAuthorization, type OAuthDeps } from '../oauth';
import type { TokenStore } from '../token-store';
import type { Sandbox } from './state';

export async function connectSandbox(
  deps: OAuthDeps & { sandbox: Sandbox; tokenStore: TokenStore },
): Promise<void> {
  const { authorizationUrl, codeVerifier, state } = await startAuthorization(deps);
  const check = deps.sandbox.authorization.checkAuthorizationRequest(
    new URL(authorizationUrl).searchParams,
  );
  if (check.kind !== 'valid')
    throw new ProviderError(
      "The sandbox refused the portal's authorization request",
      'bad-response',
    );
  const callback = new URL(deps.sandbox.authorization.approveAuthorization(check.request));
  await deps.tokenStore.save(
    await exchangeAuthorizationCode(deps, callback, codeVerifier, state),
    'sandbox',
  );
}
