import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listUserConsignees } from '~/server/services/consignees';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { consigneeSchema } from '~/shared/consignees';
import * as z from 'zod/mini';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(
    await listUserConsignees(
      context.locals.portal,
      parseId(context.params.userId, m.users_not_found),
    ),
  );
});

export const openapi = describeEndpoint({
  GET: {
    summary: "List a user's consignees",
    access: ['admin'],
    params: { userId: routeIdSchema },
    answer: { status: 200, body: okEnvelope(z.array(consigneeSchema)) },
    errors: { 404: 'No such user.' },
  },
});
