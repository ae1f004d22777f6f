import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';

// Public: the background shows on the sign-in page too.
export const GET = handle(async (context) => {
  return imageResponse(await context.locals.portal.branding.openImage('background', context.url.searchParams.get('v')), 'background');
});
