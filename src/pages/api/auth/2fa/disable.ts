import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { requireTwoFactorOffered } from '~/server/http/two-factor-pending';
import { disableTwoFactor } from '~/server/services/two-factor';
import { m } from '~/paraglide/messages.js';
import { disableTwoFactorSchema } from '~/shared/two-factor';

export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const user = requireUser(context);
  const { password } = await parseJson(context, disableTwoFactorSchema);
  await disableTwoFactor(context.locals.portal, user.id, context.locals.clientAddress, password);
  return ok(null, { message: m.twofactor_disabled() });
});
