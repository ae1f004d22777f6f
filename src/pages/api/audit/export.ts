import { auditActor } from '~/server/http/audit-actor';
import { parseQuery } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle } from '~/server/http/respond';
import { exportAuditEntries } from '~/server/services/audit';
import { auditExportQuerySchema, AUDIT_ACTIONS } from '~/shared/audit';
import { describeEndpoint } from '~/server/http/api-description';

/** Every entry the filters match, as a CSV download (streamed). */
export const GET = handle(async (context) => {
  requireRole(context, 'admin', 'admin-viewer');
  const filters = parseQuery(context, auditExportQuerySchema);
  const { filename, body } = await exportAuditEntries(
    context.locals.portal,
    auditActor(context),
    filters,
  );
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    },
  });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Export the audit trail as CSV',
    description: 'Every entry the filters match, newest first, streamed as a CSV download.',
    access: ['admin', 'admin-viewer'],
    query: auditExportQuerySchema,
    queryNotes: {
      actor: { description: 'Entries by an actor whose name contains this text.' },
      action: { description: 'Entries of this action only.', enum: AUDIT_ACTIONS },
      from: { description: 'From this day (YYYY-MM-DD, UTC), included.' },
      to: { description: 'Up to this day (YYYY-MM-DD, UTC), included; not before `from`.' },
    },
    answer: {
      status: 200,
      mediaTypes: ['text/csv'],
      description: 'The entries as CSV, as an attachment.',
    },
  },
});
