import { ok, handle } from '~/server/http/respond';
import { requireTwoFactorOffered, twoFactorEnroller } from '~/server/http/two-factor-pending';
import { startTwoFactorSetup } from '~/server/services/two-factor';

// The signed-in user, or a pending sign-in that must enrol before it finishes.
export const POST = handle(async (context) => {
  requireTwoFactorOffered(context);
  const { userId } = await twoFactorEnroller(context);
  return ok(await startTwoFactorSetup(context.locals.portal, userId));
});
