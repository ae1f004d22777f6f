import { ok, handle } from '~/server/http/respond';
import { requireTwoFactorOffered, twoFactorEnroller } from '~/server/http/two-factor-pending';
import { startTwoFactorSetup } from '~/server/services/accounts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { twoFactorSetupSchema } from '~/shared/api/accounts';

// The signed-in user, or a pending sign-in that must enrol before it finishes.
export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const { userId } = await twoFactorEnroller(context);
  return ok(await startTwoFactorSetup(context.locals.portal, userId, context.locals.clientAddress));
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Start setting up two-factor sign-in',
    description:
      'A new authenticator secret, as an otpauth URI, in base32 and as a QR code. It counts once ' +
      'POST /api/auth/2fa/enable confirms it. Besides a session, it accepts the pending cookie of ' +
      'a sign-in that TWO_FACTOR=required-for-admins sends to enrol first (`portal_2fa_pending`, ' +
      'set by POST /api/auth/login); a pending sign-in that owes a code instead is a 401.',
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(twoFactorSetupSchema) },
    errors: { ...SHARED_FAILURES.twoFactorOff, 409: 'Two-factor sign-in is already on.' },
  },
});
