import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { assignConsignees } from '~/server/services/assignments';
import { m } from '~/paraglide/messages.js';
import { consigneeIdsPayloadSchema } from '~/shared/consignees';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const userId = parseId(context.params.userId, m.users_not_found);
  const { consigneeIds } = await parseJson(context, consigneeIdsPayloadSchema);
  return ok(await assignConsignees(context.locals.portal, auditActor(context), userId, consigneeIds), { message: m.assignments_consignees_assigned() });
});
