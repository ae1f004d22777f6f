import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listReceiptAttachments } from '~/server/services/attachments';

/** The receipt's photos and documents, in the caller's scope; `meta` says when the provider was asked and whether it could be now. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  const { attachments, meta } = await listReceiptAttachments(context.locals.portal, user, id);
  return ok(attachments, { meta });
});
