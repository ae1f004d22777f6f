import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { portalSettingsSchema } from '~/shared/api/portal-settings';

export const GET = handle(async (context) => {
  requireUser(context);
  return ok({ showLocations: context.locals.portal.config.showLocations });
});

export const openapi = describeEndpoint({
  GET: {
    summary: "Read the portal's settings for the browser",
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(portalSettingsSchema) },
  },
});
