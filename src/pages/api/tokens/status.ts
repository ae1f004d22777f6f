import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readTokenStatus } from '~/server/services/sync';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { tokenStatusSchema } from '~/shared/api/tokens';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readTokenStatus(context.locals.portal));
});

export const openapi = describeEndpoint({
  GET: {
    summary: "The provider's tokens",
    description: 'What is known about them (presence, expiry, source), never their values.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(tokenStatusSchema) },
  },
});
