import { parseJson } from '~/server/http/body';
import { inLocale } from '~/server/locale';
import { ok, handle } from '~/server/http/respond';
import { forgetReturnPath } from '~/server/http/return-path';
import { openSession } from '~/server/http/session';
import { m } from '~/paraglide/messages.js';
import { loginSchema } from '~/shared/validation';
import type { SignInStep } from '~/shared/two-factor';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import * as z from 'zod/mini';
import { signedInUserSchema, signInStepSchema } from '~/shared/api/accounts';

// Public: anyone may try to sign in; the limiter in the service keeps that in bounds.
export const POST = handle(async (context) => {
  const payload = await parseJson(context, loginSchema);
  const result = await openSession(context, payload);
  // A second step follows (src/server/http/two-factor-pending.ts): no session yet, and the page to return to stays.
  if ('step' in result) {
    const step: SignInStep =
      result.step === 'code'
        ? { twoFactorRequired: true }
        : result.step === 'passkey'
          ? { passkeyRequired: true }
          : { twoFactorSetupRequired: true };
    const message =
      result.step === 'code'
        ? m.twofactor_code_needed()
        : result.step === 'passkey'
          ? m.passkey_needed()
          : m.twofactor_setup_needed();
    return ok(step, { message });
  }
  // The sign-in form already took the page to return to from /login.
  forgetReturnPath(context.cookies, context.locals.portal.config.isHttps);
  // From here on the user's own preference decides the language, this answer included.
  const locale = result.user.locale ?? context.locals.locale;
  return inLocale(locale, () =>
    ok({ user: { ...result.user, locale } }, { message: m.login_success() }),
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Sign in',
    description:
      'Sets the session cookie and answers the user. When a second factor must follow, no session ' +
      'yet: the answer says which step (`twoFactorRequired`: POST /api/auth/login/2fa; ' +
      '`twoFactorSetupRequired`: set it up first; `passkeyRequired`: an admin under ' +
      'TWO_FACTOR=required-for-admins who holds a passkey and no authenticator app signs in with ' +
      'the passkey, POST /api/auth/passkeys/sign-in/verify), and a pending sign-in cookie carries ' +
      'on.',
    access: 'public',
    body: loginSchema,
    answer: { status: 200, body: okEnvelope(z.union([signedInUserSchema, signInStepSchema])) },
    errors: {
      401: 'Wrong username or password, or the account is disabled.',
      429:
        'Too many failed sign-ins for this username from this address (RATE_LIMITED, with ' +
        'Retry-After), the right password included.',
    },
  },
});
