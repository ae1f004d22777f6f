import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { changePassword } from '~/server/services/auth';
import { m } from '~/paraglide/messages.js';
import { changePasswordSchema } from '~/shared/validation';

export const POST = handle(async (context) => {
  const user = requireUser(context);
  const payload = await parseJson(context, changePasswordSchema);
  await changePassword(context.locals.portal, user, context.locals.sessionId!, context.locals.clientAddress, payload);
  return ok(null, { message: m.profile_password_changed() });
});
