import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { backgroundInfoSchema } from '~/shared/api/branding';

// The admin screen's call; pages read the background on the server (the branding style of BareLayout.astro).
export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await context.locals.portal.branding.readBackgroundInfo());
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read the background',
    description:
      'Whether one is set, its paths, its uploaded name and size, and the cards’ opacity over it.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(backgroundInfoSchema) },
  },
});
