import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listWebhookDeliveries } from '~/server/services/webhooks';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { webhookDeliverySchema } from '~/shared/webhooks';
import * as z from 'zod/mini';

/** The endpoint's last attempts (at most 100), newest first. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.webhook_not_found);
  return ok(await listWebhookDeliveries(context.locals.portal, user, id));
});

export const openapi = describeEndpoint({
  GET: {
    summary: "A webhook endpoint's delivery log",
    description:
      'Its last attempts, at most 100, newest first: the status code, the duration and the start ' +
      "of the answer; a failed attempt's `error` in the caller's language and its `failure`, a " +
      'code and its parameters the same in every language. With a session only.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(z.array(webhookDeliverySchema)) },
  },
});
