/**
 * The receipt list's query string, without the schema library: the receipts island imports this,
 * receipt-limits.ts and types only, so zod stays off /receipts.
 */
import { DEFAULT_RECEIPT_SORT, RECEIPTS_PAGE_SIZE } from './constants';
import type { ReceiptQuery } from './receipts';

/** Empty, or `?` and the parameters: `/receipts${queryString}` names the list's API path. */
export type ReceiptQueryString = '' | `?${string}`;

/** The query string for a list request or page URL: defaults and empty values left out. */
export function receiptQueryString(query: Partial<ReceiptQuery>): ReceiptQueryString {
  const params = new URLSearchParams();
  if (query.page && query.page !== 1) params.set('page', String(query.page));
  if (query.limit && query.limit !== RECEIPTS_PAGE_SIZE) params.set('limit', String(query.limit));
  if (query.sortBy && query.sortBy !== DEFAULT_RECEIPT_SORT.sortBy)
    params.set('sortBy', query.sortBy);
  if (query.sortOrder && query.sortOrder !== DEFAULT_RECEIPT_SORT.sortOrder)
    params.set('sortOrder', query.sortOrder);
  if (query.search) params.set('search', query.search);
  if (query.trackingNumber) params.set('trackingNumber', query.trackingNumber);
  const text = params.toString();
  return text ? `?${text}` : '';
}
