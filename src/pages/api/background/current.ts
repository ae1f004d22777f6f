import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { backgroundInfoSchema } from '~/shared/api/branding';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await context.locals.portal.branding.deleteBackground(auditActor(context)), {
    message: m.branding_background_deleted(),
  });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: 'Remove the background',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(backgroundInfoSchema) },
  },
});
