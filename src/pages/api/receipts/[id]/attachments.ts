import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listReceiptAttachments } from '~/server/services/attachments';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { attachmentListMetaSchema, attachmentSummarySchema } from '~/shared/attachments';
import { okEnvelopeWithMeta } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import * as z from 'zod/mini';

/**
 * The receipt's photos and documents, in the caller's scope; `meta` says when the provider was
 * asked and whether it could be now.
 */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  const { attachments, meta } = await listReceiptAttachments(context.locals.portal, user, id);
  return ok(attachments, { meta });
});

export const openapi = describeEndpoint({
  GET: {
    summary: "List a receipt's photos and documents",
    description:
      "The receipt's attachments as the provider lists them, each with its download address " +
      "(`url`) and, for a photo, its thumbnail's. `meta.checkedAt` says when the provider was " +
      'last asked; `meta.stale` is true when it could not be asked now and the list is the one ' +
      'kept before.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: {
      status: 200,
      body: okEnvelopeWithMeta(z.array(attachmentSummarySchema), attachmentListMetaSchema),
    },
    errors: { ...SHARED_FAILURES.providerDown },
  },
});
