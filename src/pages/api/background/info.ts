import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';

// The admin screen's call; pages read the background on the server (the branding style of BareLayout.astro).
export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await context.locals.portal.branding.readBackgroundInfo());
});
