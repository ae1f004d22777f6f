import { ok, handle, notReady } from '~/server/http/respond';
import { checkReadiness } from '~/server/services/health';
import { m } from '~/paraglide/messages.js';

// Readiness, for load balancers and deploy scripts: 200 once this process may take traffic, else 503.
// The sync and the outbox are reported but never make it 503.
export const GET = handle(async (context) => {
  const { ready, checks } = await checkReadiness(context.locals.portal);
  return ready ? ok({ status: 'ok', checks }) : notReady(m.health_not_ready(), { status: 'fail', checks });
});
