import { m } from '~/paraglide/messages.js';
import { parseId, parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { removePasskey, renamePasskey } from '~/server/services/accounts';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema, okEnvelope } from '~/shared/envelope';
import { passkeyViewSchema, renamePasskeySchema } from '~/shared/passkeys';
import { routeIdSchema } from '~/shared/route-id';

/** Renames one of the caller's passkeys; anyone else's is a 404. */
export const PATCH = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.passkey_not_found);
  const payload = await parseJson(context, renamePasskeySchema);
  const passkey = await renamePasskey(
    context.locals.portal,
    user,
    context.locals.clientAddress,
    id,
    payload,
  );
  return ok(passkey, { message: m.passkey_renamed() });
});

/** Removes one of the caller's passkeys: it stops working at once. */
export const DELETE = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.passkey_not_found);
  await removePasskey(context.locals.portal, user, context.locals.clientAddress, id);
  return ok(null, { message: m.passkey_removed() });
});

export const openapi = describeEndpoint({
  PATCH: {
    summary: 'Rename a passkey',
    description: "The caller's own passkeys only. With a session only.",
    access: 'signed-in',
    params: { id: routeIdSchema },
    body: renamePasskeySchema,
    answer: { status: 200, body: okEnvelope(passkeyViewSchema) },
    errors: { 404: 'No such passkey of yours.' },
  },
  DELETE: {
    summary: 'Remove a passkey',
    description: "The caller's own passkeys only; it stops working at once. With a session only.",
    access: 'signed-in',
    params: { id: routeIdSchema },
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: { 404: 'No such passkey of yours.' },
  },
});
