import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { getDashboardStats } from '~/server/services/stats';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok(await getDashboardStats(user));
});
