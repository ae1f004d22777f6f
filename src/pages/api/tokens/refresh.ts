import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { refreshTokensNow } from '~/server/services/sync';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { tokenStatusSchema } from '~/shared/api/tokens';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await refreshTokensNow(context.locals.portal, auditActor(context)), {
    message: m.tokens_refreshed(),
  });
});

export const openapi = describeEndpoint({
  POST: {
    summary: "Refresh the provider's access token now",
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(tokenStatusSchema) },
    errors: {
      409: 'No refresh token is stored, it expired, or the provider refused it: connect again.',
      502: 'The provider cannot be reached or refused the refresh (EXTERNAL_API_ERROR).',
    },
  },
});
