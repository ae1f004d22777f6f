import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readTokenInfo } from '~/server/services/sync';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { tokenInfoSchema } from '~/shared/api/tokens';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readTokenInfo(context.locals.portal));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'How the portal reaches its provider',
    description: 'No credential is shown.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(tokenInfoSchema) },
  },
});
