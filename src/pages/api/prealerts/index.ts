import { m } from '~/paraglide/messages.js';
import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { requireCustomer, withPrealertPayload } from '~/server/http/prealerts';
import { handle, ok, okList } from '~/server/http/respond';
import { createPrealert, listPrealerts } from '~/server/services/prealerts';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope, pageEnvelope } from '~/shared/envelope';
import {
  INVOICE_CONTENT_TYPES,
  PREALERT_INVOICE_FIELD,
  PREALERT_INVOICE_MAX_BYTES,
  PREALERT_WRITES_PER_WINDOW,
  PREALERTS_WAITING_PER_USER,
  prealertListQuerySchema,
  prealertPayloadSchema,
  prealertSchema,
} from '~/shared/prealerts';

/** The caller's pre-alerts (their consignees'; staff see all), newest first, a page at a time. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return okList(
    await listPrealerts(context.locals.portal, user, parseQuery(context, prealertListQuerySchema)),
  );
});

/** A new pre-alert, as JSON or as a multipart form with its invoice; customers make them, for their own consignees. */
export const POST = handle(async (context) => {
  const user = requireCustomer(context);
  const prealert = await withPrealertPayload(context, (input, invoice) =>
    createPrealert(context.locals.portal, user, input, invoice, context.locals.clientAddress),
  );
  return ok(prealert, { status: 201, message: m.prealert_created() });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List your pre-alerts',
    description:
      "The pre-alerts of the caller's consignees (staff: all), newest first, a page at a time, " +
      'each `expected` or `received` (with its receipt).',
    access: 'signed-in',
    query: prealertListQuerySchema,
    answer: { status: 200, body: pageEnvelope(prealertSchema) },
  },
  POST: {
    summary: 'Pre-alert a package',
    description:
      "A package on its way to the warehouse, for one of the customer's consignees: as JSON, or " +
      'as multipart/form-data with the purchase invoice (PDF, JPEG, PNG or WebP, at most 5 MB, ' +
      'its type read from its bytes) in `invoice`. Customers only.',
    access: ['viewer'],
    body: prealertPayloadSchema,
    upload: {
      field: PREALERT_INVOICE_FIELD,
      maxBytes: PREALERT_INVOICE_MAX_BYTES,
      mediaTypes: Object.values(INVOICE_CONTENT_TYPES),
      required: false,
    },
    answer: { status: 201, body: okEnvelope(prealertSchema) },
    errors: {
      409:
        'The consignee already has a pre-alert for this tracking number, or the customer has ' +
        `${PREALERTS_WAITING_PER_USER} pre-alerts waiting for their packages, the most allowed.`,
      429:
        `The customer has added or changed ${PREALERT_WRITES_PER_WINDOW} pre-alerts within ` +
        'LOGIN_WINDOW_SECONDS (15 minutes by default).',
    },
  },
});
