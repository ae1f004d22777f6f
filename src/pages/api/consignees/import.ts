import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { importConsignees } from '~/server/services/consignees';
import { importResultMessage, importResultSchema } from '~/shared/consignees';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const result = await importConsignees(context.locals.portal, auditActor(context));
  return ok(result, { message: importResultMessage(result) });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Import the consignees from the provider',
    description:
      'Adds new consignees, renames changed ones and removes those the provider no longer has.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(importResultSchema) },
    errors: SHARED_FAILURES.providerDown,
  },
});
