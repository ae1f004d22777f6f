import { parseQuery } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, okList } from '~/server/http/respond';
import { listAdminPrealerts } from '~/server/services/prealerts';
import {
  adminPrealertQuerySchema,
  adminPrealertSchema,
  unmatchedReceiptSchema,
  type AdminPrealert,
  type UnmatchedReceipt,
} from '~/shared/prealerts';
import { describeEndpoint } from '~/server/http/api-description';
import { pageEnvelope } from '~/shared/envelope';
import * as z from 'zod/mini';

/**
 * The admins' views (`state`): stale pre-alerts, recent receipts without one, recent matches.
 * Admin-viewers read them too.
 */
export const GET = handle(async (context) => {
  requireRole(context, 'admin', 'admin-viewer');
  const { data, pagination } = await listAdminPrealerts(
    context.locals.portal,
    parseQuery(context, adminPrealertQuerySchema),
  );
  return okList<AdminPrealert | UnmatchedReceipt>({ data, pagination });
});

export const openapi = describeEndpoint({
  GET: {
    summary: "The admins' pre-alert views",
    description:
      '`state=stale`: pre-alerts still expected `PREALERT_STALE_DAYS` after they were made; ' +
      '`state=unmatched-receipts`: receipts of the last 30 days no pre-alert is linked to; ' +
      '`state=matched`: recent links. A page at a time.',
    access: ['admin', 'admin-viewer'],
    query: adminPrealertQuerySchema,
    answer: {
      status: 200,
      body: pageEnvelope(z.union([adminPrealertSchema, unmatchedReceiptSchema])),
    },
  },
});
