import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { receiveImage } from '~/server/http/uploads';
import { LOGO_UPLOAD, IMAGE_CONTENT_TYPES } from '~/shared/branding';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { logoInfoSchema } from '~/shared/api/branding';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const image = await receiveImage(
    context.request,
    LOGO_UPLOAD,
    context.locals.portal.config.uploadsDir,
  );
  return ok(await context.locals.portal.branding.saveLogo(auditActor(context), image), {
    message: m.branding_logo_uploaded(),
  });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Upload the logo',
    description:
      'A JPEG, PNG, GIF or WebP image, judged by its bytes; the sizes pages show are made from it.',
    access: ['admin'],
    upload: {
      field: LOGO_UPLOAD.field,
      maxBytes: LOGO_UPLOAD.maxBytes,
      mediaTypes: Object.values(IMAGE_CONTENT_TYPES),
    },
    answer: { status: 200, body: okEnvelope(logoInfoSchema) },
  },
});
