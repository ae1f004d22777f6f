import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { createShareLink } from '~/server/services/share-links';

/** A new share link to the receipt, in the caller's scope: its address is shown only in this answer. */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  return ok(await createShareLink(context.locals.portal, user, id), { status: 201 });
});
