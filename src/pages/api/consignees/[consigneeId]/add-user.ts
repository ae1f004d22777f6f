import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { addUserToConsignee } from '~/server/services/consignees';
import { m } from '~/paraglide/messages.js';
import { userIdPayloadSchema, consigneeAssignmentSchema } from '~/shared/consignees';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const consigneeId = parseId(context.params.consigneeId, m.validation_consignee_not_found);
  const { userId } = await parseJson(context, userIdPayloadSchema);
  return ok(
    await addUserToConsignee(context.locals.portal, auditActor(context), consigneeId, userId),
    { message: m.assignments_user_added() },
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Assign a user to a consignee',
    access: ['admin'],
    params: { consigneeId: routeIdSchema },
    body: userIdPayloadSchema,
    answer: { status: 200, body: okEnvelope(consigneeAssignmentSchema) },
    errors: { 404: 'No such consignee or user.' },
  },
});
