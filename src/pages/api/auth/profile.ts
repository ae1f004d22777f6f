import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok({ user });
});
