import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { invoiceResponse } from '~/server/http/prealerts';
import { handle } from '~/server/http/respond';
import { readInvoice } from '~/server/services/prealerts';
import { describeEndpoint } from '~/server/http/api-description';
import { routeIdSchema } from '~/shared/route-id';
import { INVOICE_CONTENT_TYPES } from '~/shared/prealerts';

/** The invoice of a pre-alert the caller sees, as a download. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return invoiceResponse(
    await readInvoice(
      context.locals.portal,
      user,
      parseId(context.params.id, m.prealert_not_found),
    ),
  );
});

export const openapi = describeEndpoint({
  GET: {
    summary: "Download a pre-alert's invoice",
    description:
      'The purchase invoice uploaded with a pre-alert the caller sees, as an attachment named ' +
      '`invoice-<id>` with the extension of the type its bytes were checked as (never its ' +
      'uploaded name, which the pre-alert shows as text). A pre-alert without one is a 404.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: {
      status: 200,
      mediaTypes: Object.values(INVOICE_CONTENT_TYPES),
      description: 'The invoice file.',
    },
  },
});
