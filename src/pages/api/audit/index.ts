import { parseQuery } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, okList } from '~/server/http/respond';
import { listAuditEntries } from '~/server/services/audit';
import { auditQuerySchema } from '~/shared/audit';

/** The audit trail, newest first; admin viewers read it too. */
export const GET = handle(async (context) => {
  requireRole(context, 'admin', 'admin-viewer');
  const query = parseQuery(context, auditQuerySchema);
  return okList(await listAuditEntries(context.locals.portal, query));
});
