import { parseWith } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { searchPackageScans } from '~/server/services/package-tracker';
import { firstValues, packageSearchQuerySchema } from '~/shared/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const { trackingNumber } = parseWith(packageSearchQuerySchema, firstValues(context.url.searchParams));
  return ok(await searchPackageScans(user, trackingNumber));
});
