import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { getDashboardStats } from '~/server/services/stats';
import type { FreshnessMeta } from '~/shared/sync';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const stats = await getDashboardStats(context.locals.portal, user);
  const meta: FreshnessMeta = { lastSyncedAt: await context.locals.portal.lastSync.read() };
  return ok(stats, { meta });
});
