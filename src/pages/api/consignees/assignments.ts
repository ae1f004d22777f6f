import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listAssignments } from '~/server/services/consignees';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { consigneeAssignmentSchema } from '~/shared/consignees';
import * as z from 'zod/mini';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listAssignments(context.locals.portal));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List every consignee with its users',
    description: 'Every consignee, assigned or not, with the users who see its receipts.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(z.array(consigneeAssignmentSchema)) },
  },
});
