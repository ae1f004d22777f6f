import { m } from '~/paraglide/messages.js';
import { parseJson } from '~/server/http/body';
import { takePasskeyChallenge } from '~/server/http/passkey-challenge';
import { forgetReturnPath } from '~/server/http/return-path';
import { openSessionWithPasskey } from '~/server/http/session';
import { inLocale } from '~/server/locale';
import { handle, ok } from '~/server/http/respond';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { signedInUserSchema } from '~/shared/api/accounts';
import { passkeySignInSchema } from '~/shared/passkeys';

// Public: the assertion is the credential; the login limiter counts refused ones as wrong passwords.
export const POST = handle(async (context) => {
  const token = takePasskeyChallenge(context);
  const payload = await parseJson(context, passkeySignInSchema);
  const user = await openSessionWithPasskey(context, token, payload);
  forgetReturnPath(context.cookies, context.locals.portal.config.isHttps);
  const locale = user.locale ?? context.locals.locale;
  return inLocale(locale, () => ok({ user: { ...user, locale } }, { message: m.login_success() }));
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Sign in with a passkey',
    description:
      "The browser's assertion (as @simplewebauthn/browser's startAuthentication answers it) for " +
      'the challenge this browser was given: sets the session cookie. A passkey is a full second ' +
      'factor: no authenticator code follows, and TWO_FACTOR=required-for-admins is met.',
    access: 'public',
    body: passkeySignInSchema,
    answer: { status: 200, body: okEnvelope(signedInUserSchema) },
    errors: {
      ...SHARED_FAILURES.passkeysOff,
      401:
        "Refused: no challenge (used, expired or another browser's), an unknown or removed " +
        'passkey, a signature that does not verify, a counter that went backwards, or a disabled ' +
        'account.',
      429: 'Too many failed sign-ins for this account from this address (RATE_LIMITED, with Retry-After).',
    },
  },
});
