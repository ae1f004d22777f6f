import { ok, handle } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { livenessSchema } from '~/shared/health';

// Liveness: answering at all is the check. It waits for nothing, start-up included.
export const GET = handle(async () =>
  ok({
    status: 'ok',
    checks: { process: { status: 'ok', uptimeSeconds: Math.round(process.uptime()) } },
  }),
);

export const openapi = describeEndpoint({
  GET: {
    summary: 'Liveness',
    description: 'Answering at all is the check; it answers during start-up too.',
    access: 'public',
    answer: { status: 200, body: okEnvelope(livenessSchema) },
  },
});
