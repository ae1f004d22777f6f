import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { requireCustomer, withPrealertPayload } from '~/server/http/prealerts';
import { handle, ok } from '~/server/http/respond';
import { deletePrealert, getPrealert, updatePrealert } from '~/server/services/prealerts';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema, okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import {
  INVOICE_CONTENT_TYPES,
  PREALERT_INVOICE_FIELD,
  PREALERT_INVOICE_MAX_BYTES,
  PREALERT_WRITES_PER_WINDOW,
  prealertPayloadSchema,
  prealertSchema,
} from '~/shared/prealerts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok(
    await getPrealert(
      context.locals.portal,
      user,
      parseId(context.params.id, m.prealert_not_found),
    ),
  );
});

/** Changes a pre-alert still expected (JSON, or multipart with a new invoice); one whose package came is a 409. */
export const PUT = handle(async (context) => {
  const user = requireCustomer(context);
  const id = parseId(context.params.id, m.prealert_not_found);
  const prealert = await withPrealertPayload(context, (input, invoice) =>
    updatePrealert(context.locals.portal, user, id, input, invoice, context.locals.clientAddress),
  );
  return ok(prealert, { message: m.prealert_updated() });
});

/** Withdraws a pre-alert still expected; one whose package came is a 409. */
export const DELETE = handle(async (context) => {
  const user = requireCustomer(context);
  await deletePrealert(
    context.locals.portal,
    user,
    parseId(context.params.id, m.prealert_not_found),
    context.locals.clientAddress,
  );
  return ok(null, { message: m.prealert_deleted() });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read a pre-alert',
    description: "One of the caller's pre-alerts (staff: any).",
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(prealertSchema) },
  },
  PUT: {
    summary: 'Change a pre-alert',
    description:
      'Every field again, as JSON or multipart with a new invoice (which replaces the old one); ' +
      'only while it is expected. Customers only.',
    access: ['viewer'],
    params: { id: routeIdSchema },
    body: prealertPayloadSchema,
    upload: {
      field: PREALERT_INVOICE_FIELD,
      maxBytes: PREALERT_INVOICE_MAX_BYTES,
      mediaTypes: Object.values(INVOICE_CONTENT_TYPES),
      required: false,
    },
    answer: { status: 200, body: okEnvelope(prealertSchema) },
    errors: {
      409:
        'Its package has arrived: a received pre-alert no longer changes (or the new tracking ' +
        'number is pre-alerted already).',
      429:
        `The customer has added or changed ${PREALERT_WRITES_PER_WINDOW} pre-alerts within ` +
        'LOGIN_WINDOW_SECONDS (15 minutes by default).',
    },
  },
  DELETE: {
    summary: 'Delete a pre-alert',
    description: 'Only while it is expected; the provider is told. Customers only.',
    access: ['viewer'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: { 409: 'Its package has arrived: a received pre-alert stays.' },
  },
});
