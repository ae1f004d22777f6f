import { m } from '~/paraglide/messages.js';
import { attachmentResponse } from '~/server/http/attachments';
import { parseId, parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle } from '~/server/http/respond';
import { openAttachment } from '~/server/services/attachments';
import { attachmentQuerySchema } from '~/shared/attachments';

/** An attachment's bytes, or a photo's preview (`?size=thumb|large`), in the caller's scope; anyone else's is a 404. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.attachment_not_found);
  const { size } = parseQuery(context, attachmentQuerySchema);
  return attachmentResponse(await openAttachment(context.locals.portal, user, id, size ?? 'original'), context.request);
});
