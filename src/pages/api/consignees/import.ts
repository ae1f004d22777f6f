import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { importConsignees } from '~/server/services/consignees';
import { importResultMessage } from '~/shared/consignees';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const result = await importConsignees(context.locals.portal, auditActor(context));
  return ok(result, { message: importResultMessage(result) });
});
