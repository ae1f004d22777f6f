import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';

export const GET = handle(async (context) => {
  requireUser(context);
  return ok({ showLocations: context.locals.portal.config.showLocations });
});
