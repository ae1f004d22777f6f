import { parseJson } from '~/server/http/body';
import { leaveNotice } from '~/server/http/redirect-notice';
import { AppError } from '~/server/errors';
import { ok, handle } from '~/server/http/respond';
import { resetPasswordWithToken } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { tokenPasswordSchema } from '~/shared/accounts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';

// Public: the link's token is the authority.
export const POST = handle(async (context) => {
  const { portal } = context.locals;
  if (!portal.mailer.enabled) throw new AppError('NOT_FOUND', m.account_forgot_unavailable());
  const payload = await parseJson(context, tokenPasswordSchema);
  await resetPasswordWithToken(portal, payload, context.locals.clientAddress);
  // The sign-in page the browser goes to next says it.
  leaveNotice(context.cookies, 'password-reset', portal.config.isHttps);
  return ok(null, { message: m.account_reset_done() });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Reset a password with a link',
    description: "Chooses a new password with the token of a reset link; ends the user's sessions.",
    access: 'public',
    body: tokenPasswordSchema,
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: {
      ...SHARED_FAILURES.mailOff,
      400: 'The input is refused, or the link is unknown, used or expired: `details` names the field.',
    },
  },
});
