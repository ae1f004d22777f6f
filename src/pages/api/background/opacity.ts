import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { opacityPayloadSchema } from '~/shared/branding';
import { m } from '~/paraglide/messages.js';

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const { opacity } = await parseJson(context, opacityPayloadSchema);
  return ok(await context.locals.portal.branding.setCardOpacity(auditActor(context), opacity), { message: m.branding_opacity_updated() });
});
