import { AppError } from '~/server/errors';
import { ok, handle } from '~/server/http/respond';
import { checkHealth } from '~/server/services/health';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { healthSchema } from '~/shared/health';

// Public: load balancers and uptime checks call it without a session. Unhealthy is 503, as they expect.
export const GET = handle(async (context) => {
  const { database, uptimeSeconds } = await checkHealth(context.locals.portal);
  if (!database)
    throw new AppError('INTERNAL_ERROR', m.page_database_unavailable(), { status: 503 });
  return ok({ status: 'ok', database: 'ok', uptimeSeconds });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Health check',
    description: 'Whether the database answers, for load balancers and uptime checks.',
    access: 'public',
    answer: { status: 200, body: okEnvelope(healthSchema) },
    errors: { 503: 'The database does not answer (INTERNAL_ERROR).' },
  },
});
