import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { logoInfoSchema } from '~/shared/api/branding';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await context.locals.portal.branding.deleteLogo(auditActor(context)), {
    message: m.branding_logo_deleted(),
  });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: 'Remove the logo',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(logoInfoSchema) },
  },
});
