/**
 * Pre-alerts: a customer tells the warehouse about a package on its way (carrier, tracking number,
 * shipper, contents, value, consignee, and optionally the purchase invoice), so that it is recognised on
 * arrival. The rules and their messages live here once, for the API, the forms and the tests.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { getLocale } from '~/paraglide/runtime.js';
import { TRACKING_NUMBER_MIN } from './constants';
import type { Locale } from './locale';
import { formatCount, formatSizeLimit } from './format';
import { CARRIERS, formatUsd, PREALERT_STATUSES, type PrealertStatus } from './prealert-view';
import { positiveInteger, queryText, type Pagination, type ReceiptDetails } from './receipts';

export { CARRIERS, type Carrier, type PrealertStatus } from './prealert-view';

/** Long enough for every carrier's numbers (DHL's run to 39 characters), short enough to be one. */
export const PREALERT_TRACKING_MAX = 40;
export const PREALERT_SHIPPER_MAX = 100;
export const PREALERT_DESCRIPTION_MAX = 300;
/** Declared values up to $999,999.99: a customs value, never a car. */
export const PREALERT_VALUE_MAX_CENTS = 99_999_999;
export const PREALERT_INVOICE_MAX_BYTES = 5 * 1024 * 1024;
/** Pre-alerts one customer may have waiting for their packages: with their invoices, what one account can store. */
export const PREALERTS_WAITING_PER_USER = 100;
/**
 * Pre-alerts one customer may add or change per LOGIN_WINDOW_SECONDS: each may carry an invoice and
 * tells the provider.
 */
export const PREALERT_WRITES_PER_WINDOW = 60;
/** The multipart field that carries the invoice. */
export const PREALERT_INVOICE_FIELD = 'invoice';
/** The invoice's accepted formats, by the extension the server stores them under (decided by the bytes). */
export const INVOICE_CONTENT_TYPES = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const;
export type InvoiceExtension = keyof typeof INVOICE_CONTENT_TYPES;
/** What the invoice upload accepts (src/server/http/uploads.ts's DocumentRules). */
export const INVOICE_UPLOAD = {
  field: PREALERT_INVOICE_FIELD,
  maxBytes: PREALERT_INVOICE_MAX_BYTES,
  contentTypes: INVOICE_CONTENT_TYPES,
  fallbackName: 'invoice',
  notAllowed: () => m.prealert_invoice_not_allowed(),
  tooLarge: () =>
    m.prealert_invoice_too_large({ max: formatSizeLimit(PREALERT_INVOICE_MAX_BYTES) }),
};
/** For the file picker's `accept`. */
export const ACCEPTED_INVOICE_TYPES = [
  '.pdf',
  '.jpg',
  '.jpeg',
  '.png',
  '.webp',
  ...Object.values(INVOICE_CONTENT_TYPES),
].join(',');

/**
 * A tracking number as it is stored and compared: upper case, without the spaces and dashes people
 * type to read it more easily. The mirror's packages are keyed the same way, so a pre-alert matches
 * the package that arrives whichever way either was written. The dashes are the hyphen and those a
 * phone's keyboard may put in its place.
 */
export function normalizeTrackingNumber(trackingNumber: string): string {
  return trackingNumber.replace(/[\s\-\u2010-\u2015\u2212]+/g, '').toUpperCase();
}

const TRACKING_CHARACTERS = /^[A-Z0-9]+$/;
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const says = (message: () => string) => ({ error: () => message() });

/** Text a person types on one line: trimmed, present, bounded, without control characters. */
function lineOfText(
  required: () => string,
  tooLong: () => string,
  max: number,
  hasControl: () => string,
) {
  return z.string(says(required)).check(
    z.trim(),
    z.minLength(1, says(required)),
    z.maxLength(max, says(tooLong)),
    z.refine((value: string) => !CONTROL_CHARACTERS.test(value), says(hasControl)),
  );
}

const trackingNumberField = z.pipe(
  z
    .string(says(m.prealert_tracking_required))
    .check(
      z.refine(
        (value: string) => !CONTROL_CHARACTERS.test(value),
        says(m.prealert_tracking_characters),
      ),
    ),
  z.transform((value: string, context) => {
    const normalized = normalizeTrackingNumber(value);
    const issue = (message: string) => {
      context.issues.push({ code: 'custom', input: value, message });
      return z.NEVER;
    };
    if (normalized === '') return issue(m.prealert_tracking_required());
    if (!TRACKING_CHARACTERS.test(normalized)) return issue(m.prealert_tracking_characters());
    if (normalized.length < TRACKING_NUMBER_MIN)
      return issue(m.prealert_tracking_too_short({ min: formatCount(TRACKING_NUMBER_MIN) }));
    if (normalized.length > PREALERT_TRACKING_MAX)
      return issue(m.prealert_tracking_too_long({ max: formatCount(PREALERT_TRACKING_MAX) }));
    return normalized;
  }),
);

/** Why a typed declared value is no amount; each has its own message. */
export type DeclaredValueProblem =
  'not-a-number' | 'decimals' | 'separators' | 'negative' | 'currency';

/** The reader's marks: the decimal one and the one that groups thousands ('1,299.00', '1.299,00'). */
const SEPARATORS: Record<Locale, { decimal: string; group: string }> = {
  en: { decimal: '.', group: ',' },
  nl: { decimal: ',', group: '.' },
};

/** A leading dollar sign as either language writes it: '$', 'US$' (Dutch formatting shows 'US$ 49,99'), 'USD'. */
const DOLLAR_SIGN = /^(?:US\$|USD|\$)\s*/i;
const OTHER_CURRENCY = /^(?:€|£|EUR|SRD)/i;
const escape = (mark: string) => mark.replace('.', '\\.');

/**
 * A typed declared value in whole cents, read in the reader's language: thousands separators and a
 * leading dollar sign are allowed ('$1,299.00', 'US$ 1.299,00'). Without a group the other mark also
 * counts as the decimal one ('49,99' on a Dutch keyboard in English). A number (JSON) may carry a
 * float's error past the cents (19.99 is 19.989999…).
 */
export function readDeclaredValue(
  value: unknown,
  locale: Locale,
): { cents: number } | { problem: DeclaredValueProblem } {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { problem: 'not-a-number' };
    if (value < 0) return { problem: 'negative' };
    const cents = Math.round(value * 100);
    return Math.abs(cents - value * 100) < 1e-6 ? { cents } : { problem: 'decimals' };
  }
  if (typeof value !== 'string') return { problem: 'not-a-number' };
  let text = value.trim();
  if (text.startsWith('-')) return { problem: 'negative' };
  if (OTHER_CURRENCY.test(text)) return { problem: 'currency' };
  text = text.replace(DOLLAR_SIGN, '');
  if (text.startsWith('-')) return { problem: 'negative' };
  if (!/^\d[\d.,]*$/.test(text)) return { problem: 'not-a-number' };
  const { decimal, group } = SEPARATORS[locale];
  const grouped = new RegExp(`^\\d{1,3}(?:${escape(group)}\\d{3})+$`);
  let whole = text;
  let fraction = '';
  if (text.includes(decimal)) {
    const parts = text.split(decimal);
    if (parts.length > 2) return { problem: 'separators' };
    [whole, fraction] = parts as [string, string];
  } else if (text.includes(group) && !grouped.test(text)) {
    // No decimal mark of the reader's: one of the other's before the cents is the decimal mark.
    const parts = text.split(group);
    if (parts.length > 2) return { problem: 'separators' };
    [whole, fraction] = parts as [string, string];
  }
  if (!/^\d*$/.test(fraction)) return { problem: 'separators' };
  if (fraction.length > 2) return { problem: 'decimals' };
  if (text.endsWith(decimal) || text.endsWith(group)) return { problem: 'separators' };
  if (whole.includes(group) && !grouped.test(whole)) return { problem: 'separators' };
  const digits = whole.split(group).join('');
  if (!/^\d{1,9}$/.test(digits)) return { problem: 'not-a-number' };
  return { cents: Number(digits) * 100 + Number(fraction.padEnd(2, '0')) };
}

const DECLARED_VALUE_PROBLEMS: Record<DeclaredValueProblem, () => string> = {
  'not-a-number': () => m.prealert_value_invalid(),
  decimals: () => m.prealert_value_decimals(),
  separators: () => m.prealert_value_separators(),
  negative: () => m.prealert_value_too_small(),
  currency: () => m.prealert_value_currency(),
};

const declaredValueField = z.pipe(
  z.union([z.number(), z.string()], says(m.prealert_value_required)),
  z.transform((value: number | string, context) => {
    const issue = (message: string) => {
      context.issues.push({ code: 'custom', input: value, message });
      return z.NEVER;
    };
    if (typeof value === 'string' && value.trim() === '') return issue(m.prealert_value_required());
    const reading = readDeclaredValue(value, getLocale());
    if ('problem' in reading) return issue(DECLARED_VALUE_PROBLEMS[reading.problem]());
    const { cents } = reading;
    if (cents < 1) return issue(m.prealert_value_too_small());
    if (cents > PREALERT_VALUE_MAX_CENTS)
      return issue(m.prealert_value_too_large({ max: formatUsd(PREALERT_VALUE_MAX_CENTS) }));
    return cents;
  }),
);

/** A consignee's id as JSON's number or a form's text. */
const consigneeIdField = z.pipe(
  z.union([z.number(), z.string()], says(m.prealert_consignee_required)),
  z.transform((value: number | string, context) => {
    const id =
      typeof value === 'number'
        ? value
        : /^\d{1,15}$/.test(value.trim())
          ? Number(value.trim())
          : NaN;
    if (Number.isSafeInteger(id) && id >= 1) return id;
    context.issues.push({
      code: 'custom',
      input: value,
      message: value === '' ? m.prealert_consignee_required() : m.prealert_consignee_not_yours(),
    });
    return z.NEVER;
  }),
);

const carrierField = z.pipe(
  z.string(says(m.prealert_carrier_required)),
  z.transform((value: string, context) => {
    const carrier = CARRIERS.find((known) => known === value.trim().toLowerCase());
    if (carrier) return carrier;
    context.issues.push({
      code: 'custom',
      input: value,
      message:
        value.trim() === ''
          ? m.prealert_carrier_required()
          : m.prealert_carrier_invalid({ carriers: CARRIERS.join(', ') }),
    });
    return z.NEVER;
  }),
);

/** A form's checkbox ("on", "true") or JSON's boolean; absent is false. */
const flagField = z.pipe(
  z.optional(z.union([z.boolean(), z.string()])),
  z.transform(
    (value: boolean | string | undefined) => value === true || value === 'true' || value === 'on',
  ),
);

/**
 * `POST /api/prealerts` and `PUT /api/prealerts/{id}`, as JSON or as the fields of a multipart form
 * (the invoice travels beside them). Whether the consignee is the customer's own is the service's to
 * decide: it knows whose they are.
 */
export const prealertPayloadSchema = z.object({
  carrier: carrierField,
  trackingNumber: trackingNumberField,
  shipper: lineOfText(
    m.prealert_shipper_required,
    () => m.prealert_shipper_too_long({ max: formatCount(PREALERT_SHIPPER_MAX) }),
    PREALERT_SHIPPER_MAX,
    m.prealert_text_control_characters,
  ),
  description: lineOfText(
    m.prealert_description_required,
    () => m.prealert_description_too_long({ max: formatCount(PREALERT_DESCRIPTION_MAX) }),
    PREALERT_DESCRIPTION_MAX,
    m.prealert_text_control_characters,
  ),
  declaredValue: declaredValueField,
  consigneeId: consigneeIdField,
  /** An edit only: the invoice on file goes (a new file replaces it anyway). */
  removeInvoice: flagField,
});
export type PrealertPayload = z.input<typeof prealertPayloadSchema>;
export type PrealertInput = z.output<typeof prealertPayloadSchema>;

/** Whole cents as dollars for the API: 4999 is 49.99. */
export const centsToDollars = (cents: number) => cents / 100;

export const invoiceInfoSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  size: z.number(),
});
export type InvoiceInfo = z.infer<typeof invoiceInfoSchema>;

/** A pre-alert as the API answers it. `declaredValue` is in US dollars with at most two decimals. */
export const prealertSchema = z.object({
  id: z.number(),
  status: z.enum(PREALERT_STATUSES),
  carrier: z.enum(CARRIERS),
  trackingNumber: z.string(),
  shipper: z.string(),
  description: z.string(),
  declaredValue: z.number(),
  consigneeId: z.number(),
  consigneeName: z.string(),
  receiptId: z.nullable(z.number()),
  receiptNumber: z.nullable(z.string()),
  hasInvoice: z.boolean(),
  invoice: z.nullable(invoiceInfoSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  matchedAt: z.nullable(z.string()),
});
export type Prealert = z.infer<typeof prealertSchema>;

export const PREALERTS_PAGE_SIZE = 20;
export const PREALERTS_MAX_LIMIT = 100;

/** `GET /api/prealerts`: a page, newest first, optionally of one status. */
export const prealertListQuerySchema = z.object({
  page: positiveInteger('page', 1, 1_000_000),
  limit: positiveInteger('limit', PREALERTS_PAGE_SIZE, PREALERTS_MAX_LIMIT),
  status: z.pipe(
    queryText,
    z.transform((value: string | undefined, context): PrealertStatus | undefined => {
      if (value === undefined) return undefined;
      const status = PREALERT_STATUSES.find((known) => known === value);
      if (status) return status;
      context.issues.push({
        code: 'custom',
        input: value,
        message: m.prealert_query_status({ statuses: PREALERT_STATUSES.join(', ') }),
      });
      return z.NEVER;
    }),
  ),
});
export type PrealertListQuery = z.output<typeof prealertListQuerySchema>;

export interface PrealertList {
  data: Prealert[];
  pagination: Pagination;
}

/**
 * The admin's views: pre-alerts still expected after PREALERT_STALE_DAYS, receipts that came
 * without one, and recent matches (to undo one).
 */
export const ADMIN_PREALERT_STATES = ['stale', 'unmatched-receipts', 'matched'] as const;
export type AdminPrealertState = (typeof ADMIN_PREALERT_STATES)[number];

/** Receipts received this many days back at most are offered as having come without a pre-alert. */
export const UNMATCHED_RECEIPTS_DAYS = 30;

export const adminPrealertQuerySchema = z.object({
  state: z.pipe(
    queryText,
    z.transform((value: string | undefined, context): AdminPrealertState => {
      const state = ADMIN_PREALERT_STATES.find((known) => known === (value ?? 'stale'));
      if (state) return state;
      context.issues.push({
        code: 'custom',
        input: value,
        message: m.prealert_query_state({ states: ADMIN_PREALERT_STATES.join(', ') }),
      });
      return z.NEVER;
    }),
  ),
  page: positiveInteger('page', 1, 1_000_000),
  limit: positiveInteger('limit', PREALERTS_PAGE_SIZE, PREALERTS_MAX_LIMIT),
});
export type AdminPrealertQuery = z.output<typeof adminPrealertQuerySchema>;

/** A pre-alert as the admin sees it: who made it too. */
export const adminPrealertSchema = z.extend(prealertSchema, { createdBy: z.nullable(z.string()) });
export type AdminPrealert = z.infer<typeof adminPrealertSchema>;

/** A recent receipt no pre-alert is linked to, with its packages' tracking numbers. */
export const unmatchedReceiptSchema = z.object({
  id: z.number(),
  number: z.string(),
  receivedDate: z.nullable(z.string()),
  consigneeId: z.nullable(z.number()),
  consigneeName: z.string(),
  shipperName: z.string(),
  trackingNumbers: z.array(z.string()),
});
export type UnmatchedReceipt = z.infer<typeof unmatchedReceiptSchema>;

export type AdminPrealertList =
  | { state: 'stale' | 'matched'; data: AdminPrealert[]; pagination: Pagination }
  | { state: 'unmatched-receipts'; data: UnmatchedReceipt[]; pagination: Pagination };

const positiveId = z
  .number(says(m.prealert_receipt_id_invalid))
  .check(
    z.int(says(m.prealert_receipt_id_invalid)),
    z.positive(says(m.prealert_receipt_id_invalid)),
    z.lte(Number.MAX_SAFE_INTEGER, says(m.prealert_receipt_id_invalid)),
  );

/** `POST /api/admin/prealerts/{id}/match`. */
export const matchPayloadSchema = z.object({ receiptId: positiveId });
export type MatchPayload = z.output<typeof matchPayloadSchema>;

/** What a receipt shows of the pre-alerts linked to it (its consignee's own). */
export const receiptPrealertSchema = z.object({
  id: z.number(),
  carrier: z.enum(CARRIERS),
  trackingNumber: z.string(),
  shipper: z.string(),
  description: z.string(),
  declaredValue: z.number(),
  hasInvoice: z.boolean(),
  invoice: z.nullable(invoiceInfoSchema),
});
export type ReceiptPrealert = z.infer<typeof receiptPrealertSchema>;

/** `GET /api/receipts/{id}`: the receipt with its status history and the pre-alerts its packages came for. */
export type ReceiptWithPrealerts = ReceiptDetails & { prealerts: ReceiptPrealert[] };
