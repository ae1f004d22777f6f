import { parseJson } from '~/server/http/body';
import { AppError } from '~/server/errors';
import { ok, handle } from '~/server/http/respond';
import { admitResetRequest, sendPasswordResetLink } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { forgotPasswordSchema } from '~/shared/accounts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';

// Public. One answer for every login, sent before the lookup runs: its content and timing say nothing
// about which accounts exist. Too many requests from one address are dropped as silently.
export const POST = handle(async (context) => {
  const { portal } = context.locals;
  if (!portal.mailer.enabled) throw new AppError('NOT_FOUND', m.account_forgot_unavailable());
  const payload = await parseJson(context, forgotPasswordSchema);
  if (await admitResetRequest(portal, context.locals.clientAddress))
    portal.afterAnswer.run(() =>
      sendPasswordResetLink(portal, payload, context.locals.clientAddress),
    );
  return ok(null, { status: 202, message: m.account_forgot_sent() });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Ask for a password reset link',
    description:
      'By username or e-mail address. The answer is the same whether or not an account matches, ' +
      'and comes before the look-up: a matching active account gets an e-mail with a link.',
    access: 'public',
    body: forgotPasswordSchema,
    answer: { status: 202, body: doneEnvelopeSchema },
    errors: SHARED_FAILURES.mailOff,
  },
});
