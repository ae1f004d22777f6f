import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listUserConsignees } from '~/server/services/assignments';
import { m } from '~/paraglide/messages.js';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listUserConsignees(context.locals.portal, parseId(context.params.userId, m.users_not_found)));
});
