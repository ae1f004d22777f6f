import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, okPage } from '~/server/http/respond';
import { listReceipts } from '~/server/services/receipts';
import { receiptQuerySchema, RECEIPTS_MAX_LIMIT } from '~/shared/receipts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { DEFAULT_RECEIPT_SORT, LIST_SORT_KEYS, RECEIPTS_PAGE_SIZE } from '~/shared/constants';
import { receiptListSchema } from '~/shared/api/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const query = parseQuery(context, receiptQuerySchema);
  return okPage(context, await listReceipts(context.locals.portal, user, query));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List receipts',
    description:
      "The receipts of the caller's consignees (all of them for staff), filtered, sorted and a " +
      'page at a time. `meta.lastSyncedAt` says how fresh they are.',
    access: 'signed-in',
    query: receiptQuerySchema,
    queryNotes: {
      page: { description: 'The page, from 1.', default: '1' },
      limit: {
        description: `Receipts per page, 1 to ${RECEIPTS_MAX_LIMIT}.`,
        default: String(RECEIPTS_PAGE_SIZE),
      },
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
    answer: { status: 200, body: receiptListSchema },
    errors: SHARED_FAILURES.notSynced,
  },
});
