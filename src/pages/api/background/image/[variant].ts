import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';

// Public: the background shows on the sign-in page too. One of its sizes, named as `800.avif`.
export const GET = handle(async (context) => {
  const { branding } = context.locals.portal;
  return imageResponse(await branding.openVariant('background', context.params.variant ?? '', context.url.searchParams.get('v')), 'background');
});
