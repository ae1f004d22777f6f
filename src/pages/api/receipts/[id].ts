import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { getReceipt } from '~/server/services/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  return ok(await getReceipt(context.locals.portal, user, id));
});
