import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { auditActor } from '~/server/http/audit-actor';
import { inviteUser } from '~/server/services/invitations';
import { createUser, listUsers } from '~/server/services/users';
import { m } from '~/paraglide/messages.js';
import { createUserSchema } from '~/shared/validation';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listUsers(context.locals.portal));
});

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const { password, ...payload } = await parseJson(context, createUserSchema);
  const { portal } = context.locals;
  if (password === undefined) return ok({ user: await inviteUser(portal, auditActor(context), payload) }, { status: 201, message: m.users_invite_sent() });
  return ok({ user: await createUser(portal, auditActor(context), { ...payload, password }) }, { status: 201, message: m.users_created() });
});
