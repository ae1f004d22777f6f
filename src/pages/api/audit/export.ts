import { parseQuery } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle } from '~/server/http/respond';
import { exportAuditEntries } from '~/server/services/audit';
import { auditExportQuerySchema } from '~/shared/audit';

/** Every entry the filters match, as a CSV download (streamed). */
export const GET = handle(async (context) => {
  requireRole(context, 'admin', 'admin-viewer');
  const filters = parseQuery(context, auditExportQuerySchema);
  const { filename, body } = exportAuditEntries(context.locals.portal, filters);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    },
  });
});
