import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { assignConsignees } from '~/server/services/assignments';
import { bulkAssignmentPayloadSchema } from '~/shared/consignees';
import { m } from '~/paraglide/messages.js';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const { consigneeIds, userId } = await parseJson(context, bulkAssignmentPayloadSchema);
  return ok(await assignConsignees(context.locals.portal, auditActor(context), userId, consigneeIds), { message: m.assignments_user_added_to_many() });
});
