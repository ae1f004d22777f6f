import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { createApiToken, listApiTokens } from '~/server/services/api-tokens';
import { createApiTokenSchema } from '~/shared/api-tokens';

// Signed in with a session only: these routes are not in TOKEN_READABLE_ROUTES, so a token never manages tokens.

/** The caller's API tokens, without the tokens themselves (only their hashes are kept). */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok(await listApiTokens(context.locals.portal, user.id));
});

/** A new token, `{ name, expiresInDays }`: the answer carries the token, the only time it is shown. */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const input = await parseJson(context, createApiTokenSchema);
  const created = await createApiToken(context.locals.portal, auditActor(context), user, input);
  return ok(created, { status: 201, message: m.apitoken_created() });
});
