import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { searchPackageScans } from '~/server/services/receipts';
import { packageSearchQuerySchema } from '~/shared/receipts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import * as z from 'zod/mini';
import { packageScanSchema } from '~/shared/api/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const { trackingNumber } = parseQuery(context, packageSearchQuerySchema);
  return ok(await searchPackageScans(context.locals.portal, user, trackingNumber));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Look up the warehouse scans of a package',
    description:
      "Asked live from the provider. A scan of a package on another customer's receipt is left " +
      'out; scans of packages on no receipt yet are shown to everyone.',
    access: 'signed-in',
    query: packageSearchQuerySchema,
    queryNotes: { trackingNumber: { description: "The carrier's tracking number." } },
    answer: { status: 200, body: okEnvelope(z.array(packageScanSchema)) },
    errors: SHARED_FAILURES.providerDown,
  },
});
