import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readSyncStatus, syncReceiptsNow } from '~/server/services/sync';
import { m } from '~/paraglide/messages.js';
import { syncCountsText } from '~/shared/sync';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readSyncStatus(context.locals.portal));
});

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const result = await syncReceiptsNow(context.locals.portal, auditActor(context));
  return ok(result, { message: m.sync_finished({ counts: syncCountsText(result.written, result.deleted) }) });
});
