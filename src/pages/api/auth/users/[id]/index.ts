import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { deleteUser, updateUser } from '~/server/services/users';
import { updateUserSchema } from '~/shared/validation';

export const PUT = handle(async (context) => {
  const actor = requireRole(context, 'admin');
  const id = parseId(context.params.id, 'User');
  const payload = await parseJson(context, updateUserSchema);
  return ok({ user: await updateUser(actor, id, payload) }, { message: 'User updated successfully' });
});

export const DELETE = handle(async (context) => {
  const actor = requireRole(context, 'admin');
  await deleteUser(actor, parseId(context.params.id, 'User'));
  return ok(null, { message: 'User deleted successfully' });
});
