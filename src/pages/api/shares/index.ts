import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listShareLinks } from '~/server/services/receipts';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { shareLinkSchema } from '~/shared/share-links';
import * as z from 'zod/mini';

/** The caller's share links that still work (without addresses: only their hashes are kept). */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok(await listShareLinks(context.locals.portal, user));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List your share links',
    description: 'The links that still work, without their addresses: only their hashes are kept.',
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(z.array(shareLinkSchema)) },
  },
});
