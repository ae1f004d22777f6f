import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';

// Public: the sign-in page shows the logo.
export const GET = handle(async (context) => {
  return imageResponse(await context.locals.portal.branding.openImage('logo', context.url.searchParams.get('v')), 'logo');
});
