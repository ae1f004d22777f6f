import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { sendTestWebhook } from '~/server/services/webhooks';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { WEBHOOK_TESTS_PER_WINDOW, webhookTestSchema } from '~/shared/webhooks';

/** Queues a `webhook.test` message to the endpoint; its attempt shows in the delivery log. */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.webhook_not_found);
  return ok(await sendTestWebhook(context.locals.portal, auditActor(context), user, id), {
    status: 202,
    message: m.webhook_test_queued(),
  });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Send a test event',
    description:
      'Queues a signed `webhook.test` message to the endpoint (even one turned off), tried once; ' +
      'its attempt shows in the delivery log. With a session only.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 202, body: okEnvelope(webhookTestSchema) },
    errors: {
      429:
        `${WEBHOOK_TESTS_PER_WINDOW} test events were sent to this endpoint within ` +
        'LOGIN_WINDOW_SECONDS (15 minutes by default).',
    },
  },
});
