import { auditActor } from '~/server/http/audit-actor';
import { parseId, parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { deleteUser, updateUser } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { updateUserSchema } from '~/shared/validation';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema, okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';
import { userAnswerSchema } from '~/shared/api/accounts';

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  const payload = await parseJson(context, updateUserSchema);
  return ok(
    { user: await updateUser(context.locals.portal, auditActor(context), id, payload) },
    { message: m.users_updated() },
  );
});

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  await deleteUser(
    context.locals.portal,
    auditActor(context),
    parseId(context.params.id, m.users_not_found),
  );
  return ok(null, { message: m.users_deleted() });
});

export const openapi = describeEndpoint({
  PUT: {
    summary: 'Change a user',
    description:
      "Username, name, e-mail, role and whether the account is active. Disabling it ends the user's sessions.",
    access: ['admin'],
    params: { id: routeIdSchema },
    body: updateUserSchema,
    answer: { status: 200, body: okEnvelope(userAnswerSchema) },
    errors: {
      403: 'Refused: not an admin, a cross-site request, or an admin disabling themselves or changing their own role.',
      409: 'The username is taken, or the change would leave no active admin.',
    },
  },
  DELETE: {
    summary: 'Delete a user',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: {
      403: 'Refused: not an admin, a cross-site request, or an admin deleting themselves.',
      409: 'The last active admin cannot be deleted.',
    },
  },
});
