import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { matchPrealert, unmatchPrealert } from '~/server/services/prealerts';
import { adminPrealertSchema, matchPayloadSchema } from '~/shared/prealerts';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

/** Links a pre-alert still expected to a receipt of its consignee (`{ receiptId }`); audited. */
export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.prealert_not_found);
  const { receiptId } = await parseJson(context, matchPayloadSchema);
  const prealert = await matchPrealert(context.locals.portal, auditActor(context), id, receiptId);
  return ok(prealert, { message: m.prealert_matched({ number: prealert.receiptNumber ?? '' }) });
});

/** Undoes a link: the pre-alert is expected again, and the sync leaves that receipt alone for it; audited. */
export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const prealert = await unmatchPrealert(
    context.locals.portal,
    auditActor(context),
    parseId(context.params.id, m.prealert_not_found),
  );
  return ok(prealert, { message: m.prealert_unmatched() });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Match a pre-alert to a receipt',
    description:
      'Links an expected pre-alert to a receipt of the same consignee (`{ receiptId }`); the ' +
      'customer is told as by an arrival. Audited.',
    access: ['admin'],
    params: { id: routeIdSchema },
    body: matchPayloadSchema,
    answer: { status: 200, body: okEnvelope(adminPrealertSchema) },
    errors: { 409: 'The pre-alert is matched already, or the receipt is of another consignee.' },
  },
  DELETE: {
    summary: 'Undo a match',
    description:
      'The pre-alert is expected again, and the sync no longer links it to that receipt. Audited.',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(adminPrealertSchema) },
    errors: { 409: 'The pre-alert is not matched.' },
  },
});
