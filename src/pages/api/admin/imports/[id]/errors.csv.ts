import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { importErrorsCsv, readImport, requireFileProvider } from '~/server/services/imports';
import { routeIdSchema } from '~/shared/route-id';
import { m } from '~/paraglide/messages.js';

/** An import's row errors as a CSV download. */
export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  requireFileProvider(context.locals.portal.config);
  const run = await readImport(
    context.locals.portal,
    parseId(context.params.id, m.import_not_found),
  );
  return new Response(importErrorsCsv(run.errors), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="import-${run.id}-errors.csv"`,
      'Cache-Control': 'no-store',
    },
  });
});

export const openapi = describeEndpoint({
  GET: {
    summary: "An import's row errors as CSV",
    description:
      'Row, column and reason of each refused row; cells that would start a formula are kept as text.',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: {
      status: 200,
      mediaTypes: ['text/csv'],
      description: 'The row errors as CSV, as an attachment.',
    },
    errors: { 409: 'The portal does not run on imports (PROVIDER is not file) (CONFLICT).' },
  },
});
