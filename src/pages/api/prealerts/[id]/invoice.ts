import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { invoiceResponse } from '~/server/http/prealerts';
import { handle } from '~/server/http/respond';
import { readInvoice } from '~/server/services/prealerts';

/** The invoice of a pre-alert the caller sees, as a download. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return invoiceResponse(await readInvoice(context.locals.portal, user, parseId(context.params.id, m.prealert_not_found)));
});
