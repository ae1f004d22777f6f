import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { resendInvitation, revokeInvitation } from '~/server/services/invitations';
import { m } from '~/paraglide/messages.js';

/** Sends the invitation again, with a new link. */
export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  return ok({ user: await resendInvitation(context.locals.portal, auditActor(context), id) }, { message: m.users_invite_resent() });
});

/** Revokes the invitation: its link stops working. */
export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  return ok({ user: await revokeInvitation(context.locals.portal, auditActor(context), id) }, { message: m.users_invite_revoked() });
});
