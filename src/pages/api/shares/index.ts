import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listShareLinks } from '~/server/services/share-links';

/** The caller's share links that still work (without addresses: only their hashes are kept). */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok(await listShareLinks(context.locals.portal, user));
});
