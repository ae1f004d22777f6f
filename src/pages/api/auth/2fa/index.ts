import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { requireTwoFactorOffered } from '~/server/http/two-factor-pending';
import { readTwoFactorStatus } from '~/server/services/accounts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { twoFactorStatusSchema } from '~/shared/api/accounts';

export const GET = handle(async (context) => {
  requireTwoFactorOffered(context);
  const user = requireUser(context);
  return ok(await readTwoFactorStatus(context.locals.portal, user.id));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read your two-factor status',
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(twoFactorStatusSchema) },
    errors: SHARED_FAILURES.twoFactorOff,
  },
});
