import { auditActor } from '~/server/http/audit-actor';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { clearTokens } from '~/server/services/sync';
import { CONNECTION_TEXTS } from '~/shared/tokens';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { tokenClearResultSchema } from '~/shared/api/tokens';

/** The provider revokes the tokens first when it can; they are deleted either way. */
export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const result = await clearTokens(context.locals.portal, auditActor(context));
  const message =
    result.revocationError === null
      ? CONNECTION_TEXTS.cleared
      : CONNECTION_TEXTS.clearedWithoutRevocation(result.revocationError);
  return ok(result, { message });
});

export const openapi = describeEndpoint({
  DELETE: {
    summary: "Clear the provider's tokens",
    description: 'The provider revokes them first when it can; they are deleted either way.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(tokenClearResultSchema) },
  },
});
