import { m } from '~/paraglide/messages.js';
import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { createApiToken, listApiTokens } from '~/server/services/accounts';
import {
  apiTokenSummarySchema,
  createApiTokenSchema,
  createdApiTokenSchema,
} from '~/shared/api-tokens';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import * as z from 'zod/mini';

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

export const openapi = describeEndpoint({
  GET: {
    summary: 'List your API tokens',
    description:
      'Each token by its prefix, name, creation, expiry and last use; never the token itself ' +
      '(only its hash is kept). With a session only.',
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(z.array(apiTokenSummarySchema)) },
  },
  POST: {
    summary: 'Make an API token',
    description:
      'A read-only token in your scope, valid for 30, 90 or 365 days. The token (`fp_…`) is in ' +
      'this answer only. With a session only.',
    access: 'signed-in',
    body: createApiTokenSchema,
    answer: { status: 201, body: okEnvelope(createdApiTokenSchema) },
    errors: { 409: 'You already have as many working tokens as a user may (20).' },
  },
});
