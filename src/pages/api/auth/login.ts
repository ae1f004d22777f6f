import { parseJson } from '~/server/http/body';
import { inLocale } from '~/server/locale';
import { ok, handle } from '~/server/http/respond';
import { forgetReturnPath } from '~/server/http/return-path';
import { openSession } from '~/server/http/session';
import { m } from '~/paraglide/messages.js';
import { loginSchema } from '~/shared/validation';

// Public: anyone may try to sign in; the limiter in the service keeps that in bounds.
export const POST = handle(async (context) => {
  const payload = await parseJson(context, loginSchema);
  const user = await openSession(context, payload);
  // The sign-in form already took the page to return to from /login.
  forgetReturnPath(context.cookies, context.locals.portal.config.isHttps);
  // From here on the user's own preference decides the language, this answer included.
  const locale = user.locale ?? context.locals.locale;
  return inLocale(locale, () => ok({ user: { ...user, locale } }, { message: m.login_success() }));
});
