import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { replaceUsersOfConsignees } from '~/server/services/assignments';
import { bulkAssignmentPayloadSchema } from '~/shared/consignees';
import { m } from '~/paraglide/messages.js';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const { consigneeIds, userId } = await parseJson(context, bulkAssignmentPayloadSchema);
  return ok(await replaceUsersOfConsignees(context.locals.portal, auditActor(context), consigneeIds, userId), { message: m.assignments_users_replaced() });
});
