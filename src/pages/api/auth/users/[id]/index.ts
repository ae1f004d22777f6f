import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { deleteUser, updateUser } from '~/server/services/users';
import { m } from '~/paraglide/messages.js';
import { updateUserSchema } from '~/shared/validation';

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  const payload = await parseJson(context, updateUserSchema);
  return ok({ user: await updateUser(context.locals.portal, auditActor(context), id, payload) }, { message: m.users_updated() });
});

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  await deleteUser(context.locals.portal, auditActor(context), parseId(context.params.id, m.users_not_found));
  return ok(null, { message: m.users_deleted() });
});
