import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { getReceipt } from '~/server/services/receipts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { receiptDetailsSchema } from '~/shared/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  return ok(await getReceipt(context.locals.portal, user, id));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read one receipt',
    description: 'The receipt with its packages and its status history, oldest first.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(receiptDetailsSchema) },
    errors: SHARED_FAILURES.notSynced,
  },
});
