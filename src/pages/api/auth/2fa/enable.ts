import { parseJson } from '~/server/http/body';
import { inLocale } from '~/server/locale';
import { ok, handle } from '~/server/http/respond';
import { forgetReturnPath } from '~/server/http/return-path';
import { openSessionAfterEnrolment } from '~/server/http/session';
import { requireTwoFactorOffered, twoFactorEnroller } from '~/server/http/two-factor-pending';
import { enableTwoFactor } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { enableTwoFactorSchema } from '~/shared/two-factor';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { twoFactorEnabledSchema } from '~/shared/api/accounts';

// The signed-in user, or a pending sign-in that must enrol: that one is signed in once it has.
export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const { userId, pending } = await twoFactorEnroller(context);
  const { code } = await parseJson(context, enableTwoFactorSchema);
  const recoveryCodes = await enableTwoFactor(
    context.locals.portal,
    userId,
    context.locals.clientAddress,
    code,
    pending ? null : context.locals.sessionId,
  );
  if (!pending) return ok({ recoveryCodes }, { message: m.twofactor_enabled() });
  const user = await openSessionAfterEnrolment(context);
  forgetReturnPath(context.cookies, context.locals.portal.config.isHttps);
  const locale = user.locale ?? context.locals.locale;
  return inLocale(locale, () =>
    ok({ recoveryCodes, user: { ...user, locale } }, { message: m.twofactor_enabled() }),
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Turn on two-factor sign-in',
    description:
      'Confirms the authenticator set up by POST /api/auth/2fa/setup with one of its codes, and ' +
      'answers the recovery codes, once. Every other session of the user ends. A sign-in that ' +
      'must enrol first (its pending cookie instead of a session) is signed in by it: the answer ' +
      'then carries the user too.',
    access: 'signed-in',
    body: enableTwoFactorSchema,
    answer: { status: 200, body: okEnvelope(twoFactorEnabledSchema) },
    errors: { ...SHARED_FAILURES.twoFactorOff, 409: 'Already on, or not set up first.' },
  },
});
