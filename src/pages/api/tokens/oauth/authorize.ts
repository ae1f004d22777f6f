import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { startOAuthAuthorization } from '~/server/services/tokens';

/** The state is bound to this session: the callback page refuses it in any other. */
export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await startOAuthAuthorization(context.locals.portal, context.locals.sessionId!));
});
