import { ok, handle, notReady } from '~/server/http/respond';
import { checkReadiness } from '~/server/services/health';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { notReadyEnvelopeSchema, readySchema } from '~/shared/health';

// Readiness, for load balancers and deploy scripts: 200 once this process may take traffic, else 503.
// The sync and the outbox are reported but never make it 503.
export const GET = handle(async (context) => {
  const { ready, checks } = await checkReadiness(context.locals.portal);
  return ready
    ? ok({ status: 'ok', checks })
    : notReady(m.health_not_ready(), { status: 'fail', checks });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Readiness',
    description:
      'Whether this process may take traffic: started, the database answering, every migration ' +
      'applied. The sync and the outbox are reported, and never make it unready.',
    access: 'public',
    answer: { status: 200, body: okEnvelope(readySchema) },
    errors: {
      503: { description: 'Not ready: the checks are in `data`.', body: notReadyEnvelopeSchema },
    },
  },
});
