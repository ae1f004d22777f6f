import { parseQuery } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { IMAGE_CONTENT_TYPES } from '~/shared/branding';
import { imageVersionQuerySchema } from '~/shared/api/branding';

// The upload as it came, for the admin's download: pages send its variants (image/[variant].ts).
export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return imageResponse(
    await context.locals.portal.branding.openImage(
      'background',
      parseQuery(context, imageVersionQuerySchema).v ?? null,
    ),
    'background',
    {
      download: true,
    },
  );
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Download the background as uploaded',
    access: ['admin'],
    query: imageVersionQuerySchema,
    queryNotes: {
      v: {
        description:
          "The upload's version, as GET /api/background/info's `originalPath` names it: that URL " +
          'may be kept for a year.',
      },
    },
    answer: {
      status: 200,
      mediaTypes: Object.values(IMAGE_CONTENT_TYPES),
      description: 'The uploaded file, as an attachment under its uploaded name.',
    },
    errors: { 404: 'No background is set.' },
  },
});
