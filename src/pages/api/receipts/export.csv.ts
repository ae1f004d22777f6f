import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle } from '~/server/http/respond';
import { exportReceipts } from '~/server/services/receipt-export';
import { receiptExportQuerySchema } from '~/shared/receipts';

/** Every receipt the list's filters match, as a CSV download (streamed). */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const query = parseQuery(context, receiptExportQuerySchema);
  const { filename, body } = await exportReceipts(context.locals.portal, user, query);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    },
  });
});
