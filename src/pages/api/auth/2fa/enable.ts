import { parseJson } from '~/server/http/body';
import { inLocale } from '~/server/locale';
import { ok, handle } from '~/server/http/respond';
import { forgetReturnPath } from '~/server/http/return-path';
import { openSessionAfterEnrolment } from '~/server/http/session';
import { requireTwoFactorOffered, twoFactorEnroller } from '~/server/http/two-factor-pending';
import { enableTwoFactor } from '~/server/services/two-factor';
import { m } from '~/paraglide/messages.js';
import { enableTwoFactorSchema } from '~/shared/two-factor';

// The signed-in user, or a pending sign-in that must enrol: that one is signed in once it has.
export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const { userId, pending } = await twoFactorEnroller(context);
  const { code } = await parseJson(context, enableTwoFactorSchema);
  const recoveryCodes = await enableTwoFactor(context.locals.portal, userId, context.locals.clientAddress, code);
  if (!pending) return ok({ recoveryCodes }, { message: m.twofactor_enabled() });
  const user = await openSessionAfterEnrolment(context);
  forgetReturnPath(context.cookies, context.locals.portal.config.isHttps);
  const locale = user.locale ?? context.locals.locale;
  return inLocale(locale, () => ok({ recoveryCodes, user: { ...user, locale } }, { message: m.twofactor_enabled() }));
});
