import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { receiveImage } from '~/server/http/uploads';
import { BACKGROUND_UPLOAD, IMAGE_CONTENT_TYPES } from '~/shared/branding';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { backgroundInfoSchema } from '~/shared/api/branding';

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const image = await receiveImage(
    context.request,
    BACKGROUND_UPLOAD,
    context.locals.portal.config.uploadsDir,
  );
  return ok(await context.locals.portal.branding.saveBackground(auditActor(context), image), {
    message: m.branding_background_uploaded(),
  });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Upload the background',
    description:
      'A JPEG, PNG, GIF or WebP image, judged by its bytes; the sizes pages show are made from it.',
    access: ['admin'],
    upload: {
      field: BACKGROUND_UPLOAD.field,
      maxBytes: BACKGROUND_UPLOAD.maxBytes,
      mediaTypes: Object.values(IMAGE_CONTENT_TYPES),
    },
    answer: { status: 200, body: okEnvelope(backgroundInfoSchema) },
  },
});
