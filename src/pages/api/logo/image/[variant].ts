import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';

// Public: the sign-in page shows the logo. One of its sizes, named as `112.webp`.
export const GET = handle(async (context) => {
  const { branding } = context.locals.portal;
  return imageResponse(await branding.openVariant('logo', context.params.variant ?? '', context.url.searchParams.get('v')), 'logo');
});
