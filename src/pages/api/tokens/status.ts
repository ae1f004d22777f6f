import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readTokenStatus } from '~/server/services/tokens';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readTokenStatus(context.locals.portal));
});
