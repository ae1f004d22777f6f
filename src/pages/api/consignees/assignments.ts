import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listAssignments } from '~/server/services/assignments';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listAssignments(context.locals.portal));
});
