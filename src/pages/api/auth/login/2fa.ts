import { parseJson } from '~/server/http/body';
import { inLocale } from '~/server/locale';
import { ok, handle } from '~/server/http/respond';
import { forgetReturnPath } from '~/server/http/return-path';
import { openSessionWithCode } from '~/server/http/session';
import { requireTwoFactorOffered } from '~/server/http/two-factor-pending';
import { m } from '~/paraglide/messages.js';
import { secondFactorSchema } from '~/shared/two-factor';

// Public: the pending sign-in cookie names the user, and the login limiter counts wrong codes.
export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const { code } = await parseJson(context, secondFactorSchema);
  const user = await openSessionWithCode(context, code);
  forgetReturnPath(context.cookies, context.locals.portal.config.isHttps);
  const locale = user.locale ?? context.locals.locale;
  return inLocale(locale, () => ok({ user: { ...user, locale } }, { message: m.login_success() }));
});
