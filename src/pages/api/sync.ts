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
  const { importFolder } = context.locals.portal;
  // PROVIDER=file: "Sync now" imports what lies in the watched folder at once.
  if (importFolder) {
    const run = await importFolder.scan({ immediate: true });
    const result = {
      full: false,
      written: run.written,
      deleted: run.removed,
      statusChanges: 0,
      finishedAt: new Date(context.locals.portal.clock.now()).toISOString(),
    };
    return ok(result, {
      message: m.import_folder_ran({
        files: run.files,
        counts: syncCountsText(run.written, run.removed),
      }),
    });
  }
  const result = await syncReceiptsNow(context.locals.portal, auditActor(context));
  return ok(result, {
    message: m.sync_finished({ counts: syncCountsText(result.written, result.deleted) }),
  });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read the sync status',
    description:
      'The last successful sync and its counts, and the error of a later one that failed.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(syncStatusSchema) },
  },
  POST: {
    summary: 'Sync now',
    description:
      'Syncs the receipts from the provider, or joins the sync already running, and answers once it is done.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(syncResultSchema) },
    errors: {
      503:
        'The provider is not connected or unavailable, or the sync was interrupted ' +
        '(EXTERNAL_API_ERROR, with Retry-After).',
    },
  },
});
