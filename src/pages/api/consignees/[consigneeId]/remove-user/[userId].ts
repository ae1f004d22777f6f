import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { removeUserFromConsignee } from '~/server/services/consignees';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { consigneeAssignmentSchema } from '~/shared/consignees';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const consigneeId = parseId(context.params.consigneeId, m.validation_consignee_not_found);
  const userId = parseId(context.params.userId, m.users_not_found);
  return ok(
    await removeUserFromConsignee(context.locals.portal, auditActor(context), consigneeId, userId),
    { message: m.assignments_user_removed() },
  );
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: 'Remove a user from a consignee',
    access: ['admin'],
    params: { consigneeId: routeIdSchema, userId: routeIdSchema },
    answer: { status: 200, body: okEnvelope(consigneeAssignmentSchema) },
    errors: { 404: 'No such consignee or user.' },
  },
});
