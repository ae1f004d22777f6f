import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readSyncStatus, syncReceiptsNow } from '~/server/services/sync';
import { m } from '~/paraglide/messages.js';
import { syncCountsText } from '~/shared/sync';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { syncResultSchema, syncStatusSchema } from '~/shared/api/sync';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readSyncStatus(context.locals.portal));
});

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const result = await syncReceiptsNow(context.locals.portal, auditActor(context));
  return ok(result, { message: m.sync_finished({ counts: syncCountsText(result.written, result.deleted) }) });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read the sync status',
    description: 'The last successful sync and its counts, and the error of a later one that failed.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(syncStatusSchema) },
  },
  POST: {
    summary: 'Sync now',
    description: 'Syncs the receipts from the provider, or joins the sync already running, and answers once it is done.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(syncResultSchema) },
    errors: { 503: 'The provider is not connected or unavailable, or the sync was interrupted (EXTERNAL_API_ERROR, with Retry-After).' },
  },
});
