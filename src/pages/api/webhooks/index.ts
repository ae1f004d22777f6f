import { auditActor } from '~/server/http/audit-actor';
import { parseJson, parseQuery } from '~/server/http/body';
import { requireRole, requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { createWebhook, listAllWebhooks, listWebhooks } from '~/server/services/webhooks';
import { m } from '~/paraglide/messages.js';
import {
  createdWebhookSchema,
  createWebhookSchema,
  ownedWebhookSchema,
  webhookEndpointSchema,
  webhookListQuerySchema,
} from '~/shared/webhooks';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import * as z from 'zod/mini';

/** The caller's webhook endpoints; `?scope=all`: every user's, for admins (read-only). Never a secret. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const { scope } = parseQuery(context, webhookListQuerySchema);
  if (scope === 'all') {
    requireRole(context, 'admin');
    return ok(await listAllWebhooks(context.locals.portal));
  }
  return ok(await listWebhooks(context.locals.portal, user));
});

/** Registers an endpoint; the answer holds its signing secret, the only time it is shown. */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const input = await parseJson(context, createWebhookSchema);
  return ok(await createWebhook(context.locals.portal, auditActor(context), user, input), {
    status: 201,
    message: m.webhook_created(),
  });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List your webhook endpoints',
    description:
      "The caller's endpoints, never with their secrets. With `scope=all`, an admin reads every " +
      "user's endpoints, each with its owner. With a session only.",
    access: 'signed-in',
    query: webhookListQuerySchema,
    answer: {
      status: 200,
      body: okEnvelope(z.union([z.array(webhookEndpointSchema), z.array(ownedWebhookSchema)])),
    },
    errors: { 403: '`scope=all` is for admins only.' },
  },
  POST: {
    summary: 'Register a webhook endpoint',
    description:
      'An https:// address and the events it takes (`receipt.created`, `receipt.status_changed`, ' +
      "`prealert.matched`). The answer holds the endpoint's signing secret (`whsec_…`), the only " +
      'time it is shown. With a session only.',
    access: 'signed-in',
    body: createWebhookSchema,
    answer: { status: 201, body: okEnvelope(createdWebhookSchema) },
    errors: { 409: 'You already have as many endpoints as a user may (10).' },
  },
});
