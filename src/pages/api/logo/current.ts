import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { m } from '~/paraglide/messages.js';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await context.locals.portal.branding.deleteLogo(auditActor(context)), { message: m.branding_logo_deleted() });
});
