import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { updateTokensManually } from '~/server/services/sync';
import { tokenUpdateSchema } from '~/shared/tokens';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { tokenStatusSchema } from '~/shared/api/tokens';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const payload = await parseJson(context, tokenUpdateSchema);
  return ok(await updateTokensManually(context.locals.portal, auditActor(context), payload), {
    message: m.tokens_updated(),
  });
});

export const openapi = describeEndpoint({
  POST: {
    summary: "Enter the provider's tokens by hand",
    access: ['admin'],
    body: tokenUpdateSchema,
    answer: { status: 200, body: okEnvelope(tokenStatusSchema) },
  },
});
