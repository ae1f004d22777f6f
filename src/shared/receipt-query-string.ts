/**
 * The part of the receipt list query that needs no schema library: its limits, the tracking message
 * and the query string. The receipts island imports only this (and types), so zod stays off /receipts.
 */
import { m } from '~/paraglide/messages.js';
import { DEFAULT_RECEIPT_SORT, RECEIPTS_PAGE_SIZE, TRACKING_NUMBER_MIN } from './constants';
import { formatCount } from './format';
import type { ReceiptQuery } from './receipts';

export const SEARCH_MAX_LENGTH = 100;
export const TRACKING_NUMBER_MAX = 64;
/** Spec section 5's tracking rule, as the filter and the API say it. */
export const trackingNumberMessage = () => m.receipts_tracking_number_too_short({ min: formatCount(TRACKING_NUMBER_MIN) });

/** The query string for a list request or page URL: defaults and empty values left out. */
export function receiptQueryString(query: Partial<ReceiptQuery>): string {
  const params = new URLSearchParams();
  if (query.page && query.page !== 1) params.set('page', String(query.page));
  if (query.limit && query.limit !== RECEIPTS_PAGE_SIZE) params.set('limit', String(query.limit));
  if (query.sortBy && query.sortBy !== DEFAULT_RECEIPT_SORT.sortBy) params.set('sortBy', query.sortBy);
  if (query.sortOrder && query.sortOrder !== DEFAULT_RECEIPT_SORT.sortOrder) params.set('sortOrder', query.sortOrder);
  if (query.search) params.set('search', query.search);
  if (query.trackingNumber) params.set('trackingNumber', query.trackingNumber);
  const text = params.toString();
  return text ? `?${text}` : '';
}
