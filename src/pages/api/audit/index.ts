import { parseQuery } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, okList } from '~/server/http/respond';
import { listAuditEntries } from '~/server/services/audit';
import {
  auditQuerySchema,
  AUDIT_ACTIONS,
  AUDIT_MAX_LIMIT,
  AUDIT_PAGE_SIZE,
  auditListSchema,
} from '~/shared/audit';
import { describeEndpoint } from '~/server/http/api-description';

/** The audit trail, newest first; admin viewers read it too. */
export const GET = handle(async (context) => {
  requireRole(context, 'admin', 'admin-viewer');
  const query = parseQuery(context, auditQuerySchema);
  return okList(await listAuditEntries(context.locals.portal, query));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List the audit trail',
    description:
      'Sign-ins and every change to accounts, assignments, branding, provider tokens and syncs, ' +
      'newest first, a page at a time.',
    access: ['admin', 'admin-viewer'],
    query: auditQuerySchema,
    queryNotes: {
      page: { description: 'The page, from 1.', default: '1' },
      limit: {
        description: `Entries per page, 1 to ${AUDIT_MAX_LIMIT}.`,
        default: String(AUDIT_PAGE_SIZE),
      },
      actor: { description: 'Entries by an actor whose name contains this text.' },
      action: { description: 'Entries of this action only.', enum: AUDIT_ACTIONS },
      from: { description: 'From this day (YYYY-MM-DD, UTC), included.' },
      to: { description: 'Up to this day (YYYY-MM-DD, UTC), included; not before `from`.' },
    },
    answer: { status: 200, body: auditListSchema },
  },
});
