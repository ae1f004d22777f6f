import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { assignConsignees } from '~/server/services/consignees';
import { m } from '~/paraglide/messages.js';
import { consigneeIdsPayloadSchema, bulkAddResultSchema } from '~/shared/consignees';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const userId = parseId(context.params.userId, m.users_not_found);
  const { consigneeIds } = await parseJson(context, consigneeIdsPayloadSchema);
  return ok(
    await assignConsignees(context.locals.portal, auditActor(context), userId, consigneeIds),
    { message: m.assignments_consignees_assigned() },
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Assign consignees to a user',
    description: 'Those the user already has are skipped.',
    access: ['admin'],
    params: { userId: routeIdSchema },
    body: consigneeIdsPayloadSchema,
    answer: { status: 200, body: okEnvelope(bulkAddResultSchema) },
    errors: { 404: 'No such user, or one of the consignees does not exist.' },
  },
});
