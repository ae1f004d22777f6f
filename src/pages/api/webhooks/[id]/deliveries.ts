import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listWebhookDeliveries } from '~/server/services/webhooks';

/** The endpoint's last attempts (at most 100), newest first. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.webhook_not_found);
  return ok(await listWebhookDeliveries(context.locals.portal, user, id));
});
