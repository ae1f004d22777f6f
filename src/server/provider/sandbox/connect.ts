/**
 * The portal connects itself to its built-in sandbox: the sandbox grants consent to the portal's
 * own authorization request (as the Authorize button does), and the code is exchanged over real
 * HTTP like any other provider's. Call it once the server is listening, never from whenReady():
 * the token exchange is a request to this very process, which waits for whenReady().
 */
import { config } from '../../config';
import { saveProviderTokens } from '../../services/provider-tokens';
import { ProviderError } from '../contract';
import { exchangeAuthorizationCode, startAuthorization } from '../oauth';
import { approveAuthorization, checkAuthorizationRequest } from './authorization';

export async function connectSandbox(): Promise<void> {
  if (config.provider !== 'sandbox') throw new Error('connectSandbox() needs PROVIDER=sandbox');
  const { authorizationUrl, codeVerifier, state } = await startAuthorization();
  const check = checkAuthorizationRequest(new URL(authorizationUrl).searchParams);
  if (check.kind !== 'valid') throw new ProviderError('The sandbox refused the portal\'s authorization request', 'bad-response');
  const callback = new URL(approveAuthorization(check.request));
  await saveProviderTokens(await exchangeAuthorizationCode(callback, codeVerifier, state), 'sandbox');
}
