import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { startOAuthAuthorization } from '~/server/services/sync';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { oauthStartSchema } from '~/shared/api/tokens';

/** The state is bound to this session: the callback page refuses it in any other. */
export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await startOAuthAuthorization(context.locals.portal, context.locals.sessionId!));
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Start connecting to the provider',
    description:
      "Where the admin's browser goes to sign in at the provider (OAuth2 with PKCE). The state is " +
      'bound to this session.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(oauthStartSchema) },
    errors: SHARED_FAILURES.providerDown,
  },
});
