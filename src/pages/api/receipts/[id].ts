import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { receiptDetailsSchema } from '~/shared/receipts';
import { getReceiptWithPrealerts } from '~/server/services/prealerts';
import { receiptPrealertSchema } from '~/shared/prealerts';
import * as z from 'zod/mini';

/** One receipt in the caller's scope, with its status history and the pre-alerts its packages came for. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  return ok(await getReceiptWithPrealerts(context.locals.portal, user, id));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read one receipt',
    description:
      "The receipt with its packages, its status history (oldest first) and the caller's " +
      'pre-alerts its packages came for.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: {
      status: 200,
      body: okEnvelope(
        z.extend(receiptDetailsSchema, { prealerts: z.array(receiptPrealertSchema) }),
      ),
    },
    errors: SHARED_FAILURES.notSynced,
  },
});
