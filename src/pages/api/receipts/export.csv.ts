import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle } from '~/server/http/respond';
import { exportReceipts } from '~/server/services/receipts';
import { receiptExportQuerySchema } from '~/shared/receipts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { DEFAULT_RECEIPT_SORT, LIST_SORT_KEYS } from '~/shared/constants';

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

export const openapi = describeEndpoint({
  GET: {
    summary: 'Export receipts as CSV',
    description: "Every receipt the list's filters match, in its sort, streamed as a CSV download.",
    access: 'signed-in',
    query: receiptExportQuerySchema,
    queryNotes: {
      sortBy: {
        description: 'The field to sort by.',
        enum: LIST_SORT_KEYS,
        default: DEFAULT_RECEIPT_SORT.sortBy,
      },
      sortOrder: {
        description: 'Ascending or descending.',
        enum: ['asc', 'desc'],
        default: DEFAULT_RECEIPT_SORT.sortOrder,
      },
      search: { description: 'Receipts whose number, shipper or consignee contains this text.' },
      trackingNumber: {
        description:
          'Receipts with a package whose tracking number contains this one (spaces and case aside).',
      },
    },
    answer: {
      status: 200,
      mediaTypes: ['text/csv'],
      description: 'The receipts as CSV, as an attachment.',
    },
    errors: SHARED_FAILURES.notSynced,
  },
});
