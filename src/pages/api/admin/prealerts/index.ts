import { parseQuery } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, okList } from '~/server/http/respond';
import { listAdminPrealerts } from '~/server/services/prealerts';
import { adminPrealertQuerySchema, type AdminPrealert, type UnmatchedReceipt } from '~/shared/prealerts';

/** The admins' views (`state`): stale pre-alerts, recent receipts without one, recent matches. Admin-viewers read them too. */
export const GET = handle(async (context) => {
  requireRole(context, 'admin', 'admin-viewer');
  const { data, pagination } = await listAdminPrealerts(context.locals.portal, parseQuery(context, adminPrealertQuerySchema));
  return okList<AdminPrealert | UnmatchedReceipt>({ data, pagination });
});
