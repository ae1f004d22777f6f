import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { receiveImage } from '~/server/http/uploads';
import { BACKGROUND_UPLOAD } from '~/shared/branding';
import { m } from '~/paraglide/messages.js';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const image = await receiveImage(context.request, BACKGROUND_UPLOAD, context.locals.portal.config.uploadsDir);
  return ok(await context.locals.portal.branding.saveBackground(auditActor(context), image), { message: m.branding_background_uploaded() });
});
