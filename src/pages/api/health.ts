import { AppError } from '~/server/http/errors';
import { ok, handle } from '~/server/http/respond';
import { checkHealth } from '~/server/services/health';

// Public: load balancers and uptime checks call it without a session.
export const GET = handle(async () => {
  const health = await checkHealth();
  if (health.database !== 'ok') throw new AppError('INTERNAL_ERROR', 'Database unavailable', { status: 503 });
  return ok(health);
});
