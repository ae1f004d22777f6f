import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { assignConsignees } from '~/server/services/assignments';
import { consigneeIdsPayloadSchema } from '~/shared/consignees';
import { m } from '~/paraglide/messages.js';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const userId = parseId(context.params.userId, m.assignments_user_noun());
  const { consigneeIds } = await parseJson(context, consigneeIdsPayloadSchema);
  return ok(await assignConsignees(userId, consigneeIds), { message: m.assignments_consignees_assigned() });
});
