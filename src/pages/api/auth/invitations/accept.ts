import { parseJson } from '~/server/http/body';
import { leaveNotice } from '~/server/http/redirect-notice';
import { ok, handle } from '~/server/http/respond';
import { acceptInvitation } from '~/server/services/invitations';
import { m } from '~/paraglide/messages.js';
import { tokenPasswordSchema } from '~/shared/accounts';

// Public: the invitation's token is the authority. It works without SMTP_URL too: a link sent before
// e-mail was turned off stays good.
export const POST = handle(async (context) => {
  const payload = await parseJson(context, tokenPasswordSchema);
  await acceptInvitation(context.locals.portal, payload, context.locals.clientAddress);
  leaveNotice(context.cookies, 'invitation-accepted', context.locals.portal.config.isHttps);
  return ok(null, { message: m.account_invite_done() });
});
