import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { logoInfoSchema } from '~/shared/api/branding';

// The admin screen's call; pages read the logo on the server (BrandLogo.astro).
export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await context.locals.portal.branding.readLogoInfo());
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read the logo',
    description: 'Whether one is set, its paths, its uploaded name and size.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(logoInfoSchema) },
  },
});
