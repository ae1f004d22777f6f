/**
 * Receipts as the API answers them and the list query's rules (filters, sort, paging).
 * The page and the endpoints read the query through `receiptQuerySchema`; the island, which must not
 * carry zod, writes it with `receiptQueryString` (receipt-query-string.ts, re-exported here).
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import {
  DEFAULT_RECEIPT_SORT,
  LIST_SORT_KEYS,
  RECEIPTS_PAGE_SIZE,
  TRACKING_NUMBER_MIN,
} from './constants';
import { formatCount } from './format';
import { SEARCH_MAX_LENGTH, TRACKING_NUMBER_MAX, trackingNumberMessage } from './receipt-limits';

export const RECEIPTS_MAX_LIMIT = 100;

export const commoditySchema = z.object({
  description: z.string(),
  trackingNumber: z.nullable(z.string()),
  pieces: z.number(),
  totalWeightValue: z.number(),
  totalVolumeValue: z.number(),
});
export type Commodity = z.infer<typeof commoditySchema>;

export const receiptSchema = z.object({
  id: z.number(),
  number: z.string(),
  receivedDate: z.string(),
  shipperName: z.string(),
  consigneeName: z.string(),
  pieces: z.number(),
  totalWeightValue: z.number(),
  totalVolumeValue: z.number(),
  destination: z.string(),
  status: z.string(),
  modeOfTransportation: z.string(),
  origin: z.object({ name: z.string() }),
  commodities: z.array(commoditySchema),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** A status a receipt took, and when (ISO 8601). */
export const statusHistoryEntrySchema = z.object({ status: z.string(), at: z.string() });
export type StatusHistoryEntry = z.infer<typeof statusHistoryEntrySchema>;

/** One receipt as `GET /api/receipts/{id}` answers it: the list's fields plus its status history, oldest first. */
export const receiptDetailsSchema = z.extend(receiptSchema, {
  history: z.array(statusHistoryEntrySchema),
});
export type ReceiptDetails = z.infer<typeof receiptDetailsSchema>;

export const paginationSchema = z.object({
  currentPage: z.number(),
  itemsPerPage: z.number(),
  totalItems: z.number(),
  totalPages: z.number(),
  hasNextPage: z.boolean(),
  hasPrevPage: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** Page `page` of `limit` items among `totalItems`. */
export function paginationOf(page: number, limit: number, totalItems: number): Pagination {
  const totalPages = Math.ceil(totalItems / limit);
  return {
    currentPage: page,
    itemsPerPage: limit,
    totalItems,
    totalPages,
    hasNextPage: page < totalPages,
    hasPrevPage: page > 1,
  };
}

/** `lastSyncedAt`: ISO time of the mirror's last successful sync (null before the first). */
export const listMetaSchema = z.object({
  cached: z.boolean(),
  processingTime: z.number(),
  lastSyncedAt: z.nullable(z.string()),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

/** The list answer: `{ success: true, data, pagination, meta }`. */
export interface ReceiptList {
  data: Receipt[];
  pagination: Pagination;
  meta: ListMeta;
}

export const rankedNameSchema = z.object({ name: z.string(), count: z.number() });
export type RankedName = z.infer<typeof rankedNameSchema>;

export const dashboardStatsSchema = z.object({
  totalReceipts: z.number(),
  totalWeight: z.number(),
  totalVolume: z.number(),
  totalPieces: z.number(),
  receiptsThisMonth: z.number(),
  receiptsThisWeek: z.number(),
  averageWeight: z.number(),
  averageVolume: z.number(),
  topShippers: z.array(rankedNameSchema),
  topConsignees: z.array(rankedNameSchema),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/** An external package scan: key/value fields; the UI hides `id` and `arrival_id`. */
export type PackageScanResult = Record<string, unknown> & { scanned_at?: string };

export type ReceiptSortKey = (typeof LIST_SORT_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

/** A query-string value: absent, or text after trimming ('' counts as absent). */
export const queryText = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined) => value?.trim() || undefined),
);

export function positiveInteger(name: string, fallback: number, max: number) {
  return z.pipe(
    queryText,
    z.transform((value: string | undefined, context) => {
      if (value === undefined) return fallback;
      const number = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
      if (!(number >= 1 && number <= max)) {
        // The bound as a query string writes it (1000000), in either language.
        context.issues.push({
          code: 'custom',
          input: value,
          message: m.api_query_whole_number({ name, max: String(max) }),
        });
        return z.NEVER;
      }
      return number;
    }),
  );
}

/** Control characters (a NUL byte and the like) have no place in a search; refused with a clear message. */
export const noControlCharacters = (message: () => string) =>
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  z.refine<string>((value) => !/[\u0000-\u001f\u007f]/.test(value), { error: message });

/**
 * The tracking-number rule (its length, no control characters), shared by the receipts filter and
 * the package look-up.
 */
const trackingNumberText = z.string({ error: trackingNumberMessage }).check(
  z.trim(),
  noControlCharacters(() => m.api_tracking_number_control_characters()),
  z.refine((value: string) => value.length >= TRACKING_NUMBER_MIN, {
    error: trackingNumberMessage,
  }),
  z.refine((value: string) => value.length <= TRACKING_NUMBER_MAX, {
    error: () => m.api_tracking_number_too_long({ max: formatCount(TRACKING_NUMBER_MAX) }),
  }),
);

export const receiptQuerySchema = z.object({
  page: positiveInteger('page', 1, 1_000_000),
  limit: positiveInteger('limit', RECEIPTS_PAGE_SIZE, RECEIPTS_MAX_LIMIT),
  sortBy: z.pipe(
    queryText,
    z.transform((value: string | undefined, context): ReceiptSortKey => {
      if (value === undefined) return DEFAULT_RECEIPT_SORT.sortBy;
      if ((LIST_SORT_KEYS as readonly string[]).includes(value)) return value as ReceiptSortKey;
      context.issues.push({
        code: 'custom',
        input: value,
        message: m.api_query_sort_by({ keys: LIST_SORT_KEYS.join(', ') }),
      });
      return z.NEVER;
    }),
  ),
  sortOrder: z.pipe(
    queryText,
    z.transform((value: string | undefined, context): SortOrder => {
      if (value === undefined) return DEFAULT_RECEIPT_SORT.sortOrder;
      const order = value.toLowerCase();
      if (order === 'asc' || order === 'desc') return order;
      context.issues.push({ code: 'custom', input: value, message: m.api_query_sort_order() });
      return z.NEVER;
    }),
  ),
  search: z.pipe(
    queryText,
    z.optional(
      z.string().check(
        z.maxLength(SEARCH_MAX_LENGTH, {
          error: () => m.api_search_too_long({ max: formatCount(SEARCH_MAX_LENGTH) }),
        }),
        noControlCharacters(() => m.api_search_control_characters()),
      ),
    ),
  ),
  trackingNumber: z.pipe(queryText, z.optional(trackingNumberText)),
});
export type ReceiptQuery = z.output<typeof receiptQuerySchema>;

/**
 * The CSV export's query: the list's filters and sort, the same rules; page and limit are ignored
 * (it takes every match).
 */
export const receiptExportQuerySchema = z.omit(receiptQuerySchema, { page: true, limit: true });
export type ReceiptExportQuery = z.output<typeof receiptExportQuerySchema>;

export const packageSearchQuerySchema = z.object({ trackingNumber: trackingNumberText });

/** A URL's search params as an object of first values: a repeated key cannot override the first. */
export function firstValues(params: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of params) values[key] ??= value;
  return values;
}

/** Reads the list query from a URL's search params. */
export function readReceiptQuery(params: URLSearchParams) {
  return receiptQuerySchema.safeParse(firstValues(params));
}
