import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { updateTokensManually } from '~/server/services/tokens';
import { tokenUpdateSchema } from '~/shared/tokens';
import { m } from '~/paraglide/messages.js';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const payload = await parseJson(context, tokenUpdateSchema);
  return ok(await updateTokensManually(context.locals.portal, auditActor(context), payload), { message: m.tokens_updated() });
});
