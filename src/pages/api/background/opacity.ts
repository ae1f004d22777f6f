import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { opacityPayloadSchema } from '~/shared/branding';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { backgroundInfoSchema } from '~/shared/api/branding';

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const { opacity } = await parseJson(context, opacityPayloadSchema);
  return ok(await context.locals.portal.branding.setCardOpacity(auditActor(context), opacity), {
    message: m.branding_opacity_updated(),
  });
});

export const openapi = describeEndpoint({
  PUT: {
    summary: "Set the cards' opacity over the background",
    access: ['admin'],
    body: opacityPayloadSchema,
    answer: { status: 200, body: okEnvelope(backgroundInfoSchema) },
  },
});
