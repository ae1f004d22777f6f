/**
 * A personal API token as the other way a request names its caller (src/middleware.ts "loadSession"):
 * only on the routes of TOKEN_READABLE_ROUTES, read-only and as the token's owner. Any other API route
 * refuses a token with 403; an unknown path stays the catch-all's 404.
 */
import type { APIContext } from 'astro';
import { m } from '~/paraglide/messages.js';
import { isTokenIgnored, isTokenReadable } from '~/shared/api-token-access';
import { AppError } from '../errors';
import { authenticateApiToken, type ApiTokenCaller } from '../services/accounts';

/** The catch-all under /api (src/pages/api/[...path].ts): a path no endpoint serves. */
const UNKNOWN_API_ROUTE = '/api/[...path]';

/**
 * The caller the request's bearer credential stands for, or null on a path no endpoint serves (it
 * is answered 404 whoever asks) and on the public reads that leave a token unread
 * (TOKEN_IGNORED_ROUTES). Throws the refusal otherwise: 403 off the token routes, 401 for a token
 * that does not work, 429 past its limit; each request counts in the metrics by its outcome.
 */
export async function callerOfApiToken(
  context: Pick<APIContext, 'request' | 'routePattern' | 'locals'>,
  credential: string,
): Promise<ApiTokenCaller | null> {
  if (
    context.routePattern === UNKNOWN_API_ROUTE ||
    isTokenIgnored(context.request.method, context.routePattern)
  )
    return null;
  const { metrics } = context.locals.portal;
  try {
    if (!isTokenReadable(context.request.method, context.routePattern))
      throw new AppError('FORBIDDEN', m.apitoken_route_refused());
    const caller = await authenticateApiToken(
      context.locals.portal,
      credential,
      context.locals.clientAddress,
    );
    metrics.apiTokenRequest('accepted');
    return caller;
  } catch (error) {
    if (error instanceof AppError)
      metrics.apiTokenRequest(error.errorType === 'RATE_LIMITED' ? 'limited' : 'refused');
    throw error;
  }
}
