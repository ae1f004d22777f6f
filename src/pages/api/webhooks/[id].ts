import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { deleteWebhook, readWebhook, updateWebhook } from '~/server/services/webhooks';
import { updateWebhookSchema, webhookEndpointSchema } from '~/shared/webhooks';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema, okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

/** One of the caller's endpoints; anyone else's is a 404. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.webhook_not_found);
  return ok(await readWebhook(context.locals.portal, user, id));
});

/** Changes its address or events, or turns it off or on. */
export const PUT = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.webhook_not_found);
  const input = await parseJson(context, updateWebhookSchema);
  return ok(await updateWebhook(context.locals.portal, auditActor(context), user, id, input), {
    message: m.webhook_updated(),
  });
});

export const DELETE = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.webhook_not_found);
  await deleteWebhook(context.locals.portal, auditActor(context), user, id);
  return ok(null, { message: m.webhook_deleted() });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read a webhook endpoint',
    description: "One of the caller's endpoints, without its secret. With a session only.",
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(webhookEndpointSchema) },
  },
  PUT: {
    summary: 'Change a webhook endpoint',
    description:
      'Its address, its events, or whether it is on. Turning it on again clears its failing ' +
      'state. With a session only.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    body: updateWebhookSchema,
    answer: { status: 200, body: okEnvelope(webhookEndpointSchema) },
  },
  DELETE: {
    summary: 'Delete a webhook endpoint',
    description:
      'With its delivery log; what waits to be delivered to it is dropped. With a session only.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
  },
});
