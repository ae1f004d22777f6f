import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';
import { openImage } from '~/server/services/branding';

// Public: the background shows on the sign-in page too.
export const GET = handle(async (context) => {
  return imageResponse(await openImage('background', context.url.searchParams.get('v')), 'background');
});
