import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { requireTwoFactorOffered } from '~/server/http/two-factor-pending';
import { resetTwoFactor } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

/** For a user who lost their authenticator and recovery codes: they sign in with the password alone. */
export const DELETE = handle(async (context) => {
  requireTwoFactorOffered(context);
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  const username = await resetTwoFactor(context.locals.portal, auditActor(context), id);
  return ok(null, { message: m.twofactor_reset_done({ username }) });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: "Reset a user's two-factor sign-in",
    description:
      'For a user who lost their authenticator and their recovery codes: they sign in with the ' +
      "password alone again, and are told by e-mail. An admin's own is turned off in Profile " +
      'Settings (POST /api/auth/2fa/disable) instead.',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: {
      403:
        'Not an admin, a cross-site request, or the admin names themselves: their own goes ' +
        'through Profile Settings, with the password and a code.',
      404: 'No such user, or two-factor sign-in is off on this portal (TWO_FACTOR=off).',
    },
  },
});
