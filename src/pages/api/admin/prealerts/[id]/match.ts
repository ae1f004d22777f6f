import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { matchPrealert, unmatchPrealert } from '~/server/services/prealerts';
import { matchPayloadSchema } from '~/shared/prealerts';

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
  const prealert = await unmatchPrealert(context.locals.portal, auditActor(context), parseId(context.params.id, m.prealert_not_found));
  return ok(prealert, { message: m.prealert_unmatched() });
});
