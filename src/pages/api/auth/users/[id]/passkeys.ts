import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { removeAllPasskeys } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

/** For a user who lost the device their passkeys are on: every one of them stops working at once. */
export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  const username = await removeAllPasskeys(context.locals.portal, auditActor(context), id);
  return ok(null, { message: m.passkey_admin_removed({ username }) });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: "Remove all of a user's passkeys",
    description:
      'For a user who lost the device their passkeys are on: each stops working at once, and the ' +
      'user is told by e-mail.',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: { 404: 'No such user.' },
  },
});
