import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readLastImport } from '~/server/services/consignees';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { lastImportSchema } from '~/shared/consignees';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readLastImport(context.locals.portal));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'When the consignees were last imported',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(lastImportSchema) },
  },
});
