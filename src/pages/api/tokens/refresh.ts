import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { refreshTokensNow } from '~/server/services/tokens';
import { m } from '~/paraglide/messages.js';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await refreshTokensNow(context.locals.portal, auditActor(context)), { message: m.tokens_refreshed() });
});
