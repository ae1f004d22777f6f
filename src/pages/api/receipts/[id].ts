import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { getReceiptWithPrealerts } from '~/server/services/prealerts';

/** One receipt in the caller's scope, with its status history and the pre-alerts its packages came for. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  return ok(await getReceiptWithPrealerts(context.locals.portal, user, id));
});
