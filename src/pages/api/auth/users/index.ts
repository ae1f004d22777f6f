import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { auditActor } from '~/server/http/audit-actor';
import { inviteUser, createUser, listUsers } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { createUserSchema } from '~/shared/validation';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import * as z from 'zod/mini';
import { managedUserSchema, userAnswerSchema } from '~/shared/api/accounts';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await listUsers(context.locals.portal));
});

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const { password, ...payload } = await parseJson(context, createUserSchema);
  const { portal } = context.locals;
  if (password === undefined)
    return ok(
      { user: await inviteUser(portal, auditActor(context), payload) },
      { status: 201, message: m.users_invite_sent() },
    );
  return ok(
    { user: await createUser(portal, auditActor(context), { ...payload, password }) },
    { status: 201, message: m.users_created() },
  );
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List the users',
    description: 'Every account, oldest first, with whether two-factor sign-in is on for it.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(z.array(managedUserSchema)) },
  },
  POST: {
    summary: 'Create a user',
    description:
      'With a password the admin chooses, or with `invite: true` (and an e-mail address, no ' +
      'password) an e-mail that lets the user choose their own.',
    access: ['admin'],
    body: createUserSchema,
    answer: { status: 201, body: okEnvelope(userAnswerSchema) },
    errors: {
      400: 'The input is refused (an invitation needs e-mail on, SMTP_URL): `details` names each field.',
      409: 'The username is taken.',
    },
  },
});
