import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { requireTwoFactorOffered } from '~/server/http/two-factor-pending';
import { disableTwoFactor } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { disableTwoFactorSchema } from '~/shared/two-factor';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';

export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const user = requireUser(context);
  const payload = await parseJson(context, disableTwoFactorSchema);
  await disableTwoFactor(context.locals.portal, user.id, context.locals.clientAddress, payload);
  return ok(null, { message: m.twofactor_disabled() });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Turn off two-factor sign-in',
    description:
      'The signed-in user turns their own second factor off, confirming with their password and a ' +
      'code from the authenticator app or a recovery code.',
    access: 'signed-in',
    body: disableTwoFactorSchema,
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: {
      ...SHARED_FAILURES.twoFactorOff,
      409: 'Two-factor sign-in is not on for this user.',
      400: 'The input is refused, or the password or the code is wrong: `details` names the field.',
      429: 'Too many wrong passwords or codes (RATE_LIMITED, with Retry-After).',
    },
  },
});
