import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { revokeApiToken } from '~/server/services/accounts';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

/** Revokes one of the caller's API tokens; anyone else's is a 404. Signed in with a session only. */
export const DELETE = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.apitoken_not_found);
  await revokeApiToken(context.locals.portal, auditActor(context), user, id);
  return ok(null, { message: m.apitoken_revoke_done() });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: 'Revoke an API token',
    description: "The caller's own tokens only; it stops working at once. With a session only.",
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
  },
});
