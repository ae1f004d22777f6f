import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { searchPackageScans } from '~/server/services/package-tracker';
import { packageSearchQuerySchema } from '~/shared/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const { trackingNumber } = parseQuery(context, packageSearchQuerySchema);
  return ok(await searchPackageScans(context.locals.portal, user, trackingNumber));
});
