import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { getDashboardStats } from '~/server/services/receipts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelopeWithMeta } from '~/shared/envelope';
import { dashboardStatsSchema } from '~/shared/receipts';
import { type FreshnessMeta } from '~/shared/sync';
import { freshnessMetaSchema } from '~/shared/api/sync';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const stats = await getDashboardStats(context.locals.portal, user);
  const meta: FreshnessMeta = { lastSyncedAt: await context.locals.portal.lastSync.read() };
  return ok(stats, { meta });
});

export const openapi = describeEndpoint({
  GET: {
    summary: "Your receipts' statistics",
    description:
      "The dashboard's totals and top shippers and consignees, over the caller's receipts.",
    access: 'signed-in',
    answer: { status: 200, body: okEnvelopeWithMeta(dashboardStatsSchema, freshnessMetaSchema) },
    errors: SHARED_FAILURES.notSynced,
  },
});
