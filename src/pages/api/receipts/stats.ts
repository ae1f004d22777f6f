import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { getDashboardStats } from '~/server/services/stats';
import { readLastSyncedAt } from '~/server/services/sync-state';
import type { FreshnessMeta } from '~/shared/sync';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const stats = await getDashboardStats(user);
  const meta: FreshnessMeta = { lastSyncedAt: await readLastSyncedAt() };
  return ok(stats, { meta });
});
