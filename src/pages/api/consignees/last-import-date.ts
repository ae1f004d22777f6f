import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readLastImport } from '~/server/services/consignees';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readLastImport(context.locals.portal));
});
