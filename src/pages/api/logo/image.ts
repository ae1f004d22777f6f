import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';
import { openImage } from '~/server/services/branding';

// Public: the sign-in page shows the logo.
export const GET = handle(async (context) => {
  return imageResponse(await openImage('logo', context.url.searchParams.get('v')), 'logo');
});
