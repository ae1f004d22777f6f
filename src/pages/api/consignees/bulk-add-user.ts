import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { assignConsignees } from '~/server/services/consignees';
import { bulkAssignmentPayloadSchema, bulkAddResultSchema } from '~/shared/consignees';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const { consigneeIds, userId } = await parseJson(context, bulkAssignmentPayloadSchema);
  return ok(
    await assignConsignees(context.locals.portal, auditActor(context), userId, consigneeIds),
    { message: m.assignments_user_added_to_many() },
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Assign a user to several consignees',
    description: 'Those the user already has are skipped.',
    access: ['admin'],
    body: bulkAssignmentPayloadSchema,
    answer: { status: 200, body: okEnvelope(bulkAddResultSchema) },
    errors: { 404: 'No such user, or one of the consignees does not exist.' },
  },
});
