import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { receiveImage } from '~/server/http/uploads';
import { saveLogo } from '~/server/services/branding';
import { LOGO_UPLOAD } from '~/shared/branding';
import { m } from '~/paraglide/messages.js';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const image = await receiveImage(context.request, LOGO_UPLOAD);
  return ok(await saveLogo(image), { message: m.branding_logo_uploaded() });
});
