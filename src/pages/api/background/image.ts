import { requireRole } from '~/server/http/guard';
import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';

// The upload as it came, for the admin's download: pages send its variants (image/[variant].ts).
export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return imageResponse(await context.locals.portal.branding.openImage('background', context.url.searchParams.get('v')), 'background', { download: true });
});
