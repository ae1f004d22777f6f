import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { revokeUserApiTokens } from '~/server/services/accounts';
import { revokedApiTokensSchema, type RevokedApiTokens } from '~/shared/api-tokens';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

/** An admin revokes every working API token of a user (a leaked token, a system retired); answers how many. */
export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const id = parseId(context.params.id, m.users_not_found);
  const revoked = await revokeUserApiTokens(context.locals.portal, auditActor(context), id);
  const data: RevokedApiTokens = { revoked };
  return ok(data, { message: m.apitoken_admin_revoked({ count: revoked }) });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: "Revoke a user's API tokens",
    description: 'Every working API token of the user; answers how many were revoked.',
    access: ['admin'],
    params: { id: routeIdSchema },
    answer: { status: 200, body: okEnvelope(revokedApiTokensSchema) },
  },
});
