import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listConsignees } from '~/server/services/consignees';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { consigneeSchema } from '~/shared/consignees';
import * as z from 'zod/mini';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listConsignees(context.locals.portal));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List the consignees',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(z.array(consigneeSchema)) },
  },
});
