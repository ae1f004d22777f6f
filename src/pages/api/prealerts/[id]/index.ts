import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { requireCustomer, withPrealertPayload } from '~/server/http/prealerts';
import { handle, ok } from '~/server/http/respond';
import { deletePrealert, getPrealert, updatePrealert } from '~/server/services/prealerts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok(await getPrealert(context.locals.portal, user, parseId(context.params.id, m.prealert_not_found)));
});

/** Changes a pre-alert still expected (JSON, or multipart with a new invoice); one whose package came is a 409. */
export const PUT = handle(async (context) => {
  const user = requireCustomer(context);
  const id = parseId(context.params.id, m.prealert_not_found);
  const prealert = await withPrealertPayload(context, (input, invoice) => updatePrealert(context.locals.portal, user, id, input, invoice));
  return ok(prealert, { message: m.prealert_updated() });
});

/** Withdraws a pre-alert still expected; one whose package came is a 409. */
export const DELETE = handle(async (context) => {
  const user = requireCustomer(context);
  await deletePrealert(context.locals.portal, user, parseId(context.params.id, m.prealert_not_found));
  return ok(null, { message: m.prealert_deleted() });
});
