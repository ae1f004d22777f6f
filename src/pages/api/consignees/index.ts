import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listConsignees } from '~/server/services/assignments';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listConsignees(context.locals.portal));
});
