import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { testMagayaConnection } from '~/server/services/sync';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { magayaTestResultSchema } from '~/shared/api/magaya';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await testMagayaConnection(context.locals.portal));
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Test the Magaya connection',
    description:
      'Starts a session with the API user and ends it at once; answers whether Magaya accepted it ' +
      'and, if not, why in words. 404 with another provider.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(magayaTestResultSchema) },
  },
});
