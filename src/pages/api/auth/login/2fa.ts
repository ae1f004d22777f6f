import { parseJson } from '~/server/http/body';
import { inLocale } from '~/server/locale';
import { ok, handle } from '~/server/http/respond';
import { forgetReturnPath } from '~/server/http/return-path';
import { openSessionWithCode } from '~/server/http/session';
import { requireTwoFactorOffered } from '~/server/http/two-factor-pending';
import { m } from '~/paraglide/messages.js';
import { secondFactorSchema } from '~/shared/two-factor';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { signedInUserSchema } from '~/shared/api/accounts';

// Public: the pending sign-in cookie names the sign-in held on the server, and the login limiter counts wrong codes.
export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const { code } = await parseJson(context, secondFactorSchema);
  const user = await openSessionWithCode(context, code);
  forgetReturnPath(context.cookies, context.locals.portal.config.isHttps);
  const locale = user.locale ?? context.locals.locale;
  return inLocale(locale, () => ok({ user: { ...user, locale } }, { message: m.login_success() }));
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Finish signing in with a second factor',
    description:
      'An authenticator code or a recovery code, for the sign-in its pending cookie names: sets the session cookie.',
    access: 'public',
    body: secondFactorSchema,
    answer: { status: 200, body: okEnvelope(signedInUserSchema) },
    errors: {
      ...SHARED_FAILURES.twoFactorOff,
      401:
        "Wrong code (also while the account's code step is closed after too many wrong codes), or " +
        'no pending sign-in (expired, finished, or its 5 codes used: sign in again).',
      429: 'Too many wrong codes (RATE_LIMITED, with Retry-After).',
    },
  },
});
