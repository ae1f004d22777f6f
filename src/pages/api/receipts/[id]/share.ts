import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { createShareLink } from '~/server/services/share-links';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { createdShareLinkSchema } from '~/shared/share-links';

/** A new share link to the receipt, in the caller's scope: its address is shown only in this answer. */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  return ok(await createShareLink(context.locals.portal, user, id, context.locals.clientAddress), { status: 201 });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Share a receipt',
    description: "A read-only link to the receipt's status for anyone, valid for 30 days. Its address is in this answer only: the portal keeps its hash.",
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 201, body: okEnvelope(createdShareLinkSchema) },
  },
});
