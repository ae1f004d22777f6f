import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { resendInvitation, revokeInvitation } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { userAnswerSchema } from '~/shared/api/accounts';

/** Sends the invitation again, with a new link. */
export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  return ok(
    { user: await resendInvitation(context.locals.portal, auditActor(context), id) },
    { message: m.users_invite_resent() },
  );
});

/** Revokes the invitation: its link stops working. */
export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  return ok(
    { user: await revokeInvitation(context.locals.portal, auditActor(context), id) },
    { message: m.users_invite_revoked() },
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Send an invitation again',
    description: 'A new link by e-mail; the old one stops working.',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(userAnswerSchema) },
    errors: {
      400: 'E-mail is off (no SMTP_URL), or the user has no e-mail address.',
      409: 'The user has already accepted.',
    },
  },
  DELETE: {
    summary: 'Revoke an invitation',
    description: 'Its link stops working.',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(userAnswerSchema) },
    errors: { 409: 'The user has already accepted.' },
  },
});
