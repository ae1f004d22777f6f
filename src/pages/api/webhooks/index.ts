import { auditActor } from '~/server/http/audit-actor';
import { parseJson, parseQuery } from '~/server/http/body';
import { requireRole, requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { createWebhook, listAllWebhooks, listWebhooks } from '~/server/services/webhooks';
import { m } from '~/paraglide/messages.js';
import { createWebhookSchema, webhookListQuerySchema } from '~/shared/webhooks';

/** The caller's webhook endpoints; `?scope=all`: every user's, for admins (read-only). Never a secret. */
export const GET = handle(async (context) => {
  const { scope } = parseQuery(context, webhookListQuerySchema);
  if (scope === 'all') {
    requireRole(context, 'admin');
    return ok(await listAllWebhooks(context.locals.portal));
  }
  const user = requireUser(context);
  return ok(await listWebhooks(context.locals.portal, user));
});

/** Registers an endpoint; the answer holds its signing secret, the only time it is shown. */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const input = await parseJson(context, createWebhookSchema);
  return ok(await createWebhook(context.locals.portal, auditActor(context), user, input), { status: 201, message: m.webhook_created() });
});
