import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { revokeShareLink } from '~/server/services/receipts';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

/** Revokes one of the caller's share links; anyone else's is a 404. */
export const DELETE = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.share_not_found);
  await revokeShareLink(context.locals.portal, user, id, context.locals.clientAddress);
  return ok(null, { message: m.share_revoked() });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: 'Revoke a share link',
    description: "The caller's own links only.",
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
  },
});
