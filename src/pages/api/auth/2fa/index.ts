import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { requireTwoFactorOffered } from '~/server/http/two-factor-pending';
import { readTwoFactorStatus } from '~/server/services/two-factor';

export const GET = handle(async (context) => {
  requireTwoFactorOffered(context);
  const user = requireUser(context);
  return ok(await readTwoFactorStatus(context.locals.portal, user.id));
});
