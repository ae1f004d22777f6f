import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { createUser, listUsers } from '~/server/services/users';
import { m } from '~/paraglide/messages.js';
import { createUserSchema } from '~/shared/validation';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listUsers(context.locals.portal));
});

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const payload = await parseJson(context, createUserSchema);
  return ok({ user: await createUser(context.locals.portal, auditActor(context), payload) }, { status: 201, message: m.users_created() });
});
