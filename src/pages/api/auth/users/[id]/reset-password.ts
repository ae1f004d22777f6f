import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { resetPassword } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { resetPasswordSchema } from '~/shared/validation';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  const { newPassword } = await parseJson(context, resetPasswordSchema);
  await resetPassword(context.locals.portal, auditActor(context), id, newPassword);
  return ok(null, { message: m.users_password_reset() });
});

export const openapi = describeEndpoint({
  PUT: {
    summary: "Set a user's password",
    description: "Ends the user's sessions.",
    access: ['admin'],
    params: { id: routeIdSchema },
    body: resetPasswordSchema,
    answer: { status: 200, body: doneEnvelopeSchema },
  },
});
