import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readOAuthConfig } from '~/server/services/sync';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { oauthConfigSchema } from '~/shared/api/tokens';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readOAuthConfig(context.locals.portal));
});

export const openapi = describeEndpoint({
  GET: {
    summary: "The portal's OAuth2 client at the provider",
    description: 'Without its secret.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(oauthConfigSchema) },
    errors: SHARED_FAILURES.providerDown,
  },
});
