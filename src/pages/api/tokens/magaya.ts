import { auditActor } from '~/server/http/audit-actor';
import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { readMagayaConnection, saveMagayaCredentials } from '~/server/services/sync';
import { magayaCredentialsSchema } from '~/shared/magaya';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { magayaConnectionStatusSchema } from '~/shared/api/magaya';

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await readMagayaConnection(context.locals.portal));
});

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const credentials = await parseJson(context, magayaCredentialsSchema);
  return ok(await saveMagayaCredentials(context.locals.portal, auditActor(context), credentials), {
    message: m.magaya_connection_saved(),
  });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read the Magaya connection',
    description:
      'PROVIDER=magaya: the API user (never its password), the endpoint and the outcome of the ' +
      'last session. 404 with another provider.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(magayaConnectionStatusSchema) },
  },
  PUT: {
    summary: 'Set the Magaya API user',
    description:
      'Stores the user and its password (encrypted). 409 when MAGAYA_USERNAME / MAGAYA_PASSWORD ' +
      'set it on the server; 404 with another provider.',
    access: ['admin'],
    body: magayaCredentialsSchema,
    answer: { status: 200, body: okEnvelope(magayaConnectionStatusSchema) },
  },
});
