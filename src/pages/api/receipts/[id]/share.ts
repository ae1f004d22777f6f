import { m } from '~/paraglide/messages.js';
import { parseId, parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { createShareLink } from '~/server/services/receipts';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { createdShareLinkSchema, shareRequestSchema } from '~/shared/share-links';

/**
 * A new share link to the receipt, in the caller's scope: its address is shown only in this answer. While
 * the caller's link to it works, another is made only with `replace=true`, which revokes the old one.
 */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.validation_receipt_not_found);
  const { replace } = parseQuery(context, shareRequestSchema);
  return ok(
    await createShareLink(context.locals.portal, user, id, context.locals.clientAddress, {
      replace,
    }),
    { status: 201 },
  );
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Share a receipt',
    description:
      "A read-only link to the receipt's status for anyone, valid for 30 days. Its address is in " +
      'this answer only: the portal keeps its hash. The caller has one link to a receipt at a ' +
      'time: while it works, a new one is a 409 unless `replace=true`, which revokes the old ' +
      'link.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    query: shareRequestSchema,
    queryNotes: {
      replace: {
        description:
          "'true' makes a new link and revokes the caller's link to the receipt that still works.",
        enum: ['true', 'false'],
        default: 'false',
      },
    },
    answer: { status: 201, body: okEnvelope(createdShareLinkSchema) },
    errors: {
      409:
        "The caller's link to the receipt still works (CONFLICT, saying when it was made); " +
        '`replace=true` makes a new one.',
    },
  },
});
