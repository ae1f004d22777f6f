import { m } from '~/paraglide/messages.js';
import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { takePasskeyChallenge } from '~/server/http/passkey-challenge';
import { handle, ok } from '~/server/http/respond';
import { finishPasskeyRegistration } from '~/server/services/accounts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { passkeyRegistrationSchema, passkeyViewSchema } from '~/shared/passkeys';

export const POST = handle(async (context) => {
  const user = requireUser(context);
  const token = takePasskeyChallenge(context);
  const payload = await parseJson(context, passkeyRegistrationSchema);
  const passkey = await finishPasskeyRegistration(
    context.locals.portal,
    user.id,
    context.locals.clientAddress,
    token,
    payload,
  );
  return ok(passkey, { status: 201, message: m.passkey_added({ name: passkey.name }) });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Finish adding a passkey',
    description:
      "The browser's new credential (as @simplewebauthn/browser's startRegistration answers it) " +
      'for the challenge this browser was given, and optionally a name; without one, the passkey ' +
      'is named after the kind of device it is on. With a session only.',
    access: 'signed-in',
    body: passkeyRegistrationSchema,
    answer: { status: 201, body: okEnvelope(passkeyViewSchema) },
    errors: {
      ...SHARED_FAILURES.passkeysOff,
      400: "The challenge is missing, used, expired or another browser's, or the credential does not verify.",
      409: 'This passkey is registered already.',
    },
  },
});
