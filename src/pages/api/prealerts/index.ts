import { m } from '~/paraglide/messages.js';
import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { requireCustomer, withPrealertPayload } from '~/server/http/prealerts';
import { handle, ok, okList } from '~/server/http/respond';
import { createPrealert, listPrealerts } from '~/server/services/prealerts';
import { prealertListQuerySchema } from '~/shared/prealerts';

/** The caller's pre-alerts (their consignees'; staff see all), newest first, a page at a time. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return okList(await listPrealerts(context.locals.portal, user, parseQuery(context, prealertListQuerySchema)));
});

/** A new pre-alert, as JSON or as a multipart form with its invoice; customers make them, for their own consignees. */
export const POST = handle(async (context) => {
  const user = requireCustomer(context);
  const prealert = await withPrealertPayload(context, (input, invoice) => createPrealert(context.locals.portal, user, input, invoice));
  return ok(prealert, { status: 201, message: m.prealert_created() });
});
