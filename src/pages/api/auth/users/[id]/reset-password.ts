import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { resetPassword } from '~/server/services/users';
import { resetPasswordSchema } from '~/shared/validation';

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, 'User');
  const { newPassword } = await parseJson(context, resetPasswordSchema);
  await resetPassword(id, newPassword);
  return ok(null, { message: 'Password reset successfully' });
});
