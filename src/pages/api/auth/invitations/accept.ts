import { parseJson } from '~/server/http/body';
import { leaveNotice } from '~/server/http/redirect-notice';
import { ok, handle } from '~/server/http/respond';
import { acceptInvitation } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { tokenPasswordSchema } from '~/shared/accounts';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';

// Public: the invitation's token is the authority. It works without SMTP_URL too: a link sent before
// e-mail was turned off stays good.
export const POST = handle(async (context) => {
  const payload = await parseJson(context, tokenPasswordSchema);
  await acceptInvitation(context.locals.portal, payload, context.locals.clientAddress);
  leaveNotice(context.cookies, 'invitation-accepted', context.locals.portal.config.isHttps);
  return ok(null, { message: m.account_invite_done() });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Accept an invitation',
    description:
      "Chooses the invited user's password with the token of the invitation's link; the account can then sign in.",
    access: 'public',
    body: tokenPasswordSchema,
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: {
      400: 'The input is refused, or the link is unknown, used or expired: `details` names the field.',
    },
  },
});
