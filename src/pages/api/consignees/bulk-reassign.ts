import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { replaceUsersOfConsignees } from '~/server/services/consignees';
import { bulkAssignmentPayloadSchema, bulkReassignResultSchema } from '~/shared/consignees';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const { consigneeIds, userId } = await parseJson(context, bulkAssignmentPayloadSchema);
  return ok(
    await replaceUsersOfConsignees(
      context.locals.portal,
      auditActor(context),
      consigneeIds,
      userId,
    ),
    { message: m.assignments_users_replaced() },
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Give several consignees to one user only',
    description: 'Each consignee named loses its other users.',
    access: ['admin'],
    body: bulkAssignmentPayloadSchema,
    answer: { status: 200, body: okEnvelope(bulkReassignResultSchema) },
    errors: { 404: 'No such user, or one of the consignees does not exist.' },
  },
});
