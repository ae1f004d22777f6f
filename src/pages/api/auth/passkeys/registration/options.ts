import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { setPasskeyChallenge } from '~/server/http/passkey-challenge';
import { handle, ok } from '~/server/http/respond';
import { startPasskeyRegistration } from '~/server/services/accounts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { passkeyRegistrationStartSchema } from '~/shared/api/passkeys';
import { okEnvelope } from '~/shared/envelope';
import { passkeyRegistrationOptionsSchema } from '~/shared/passkeys';

/** The password first; then the options for `navigator.credentials.create`, with a challenge held for this browser. */
export const POST = handle(async (context) => {
  const user = requireUser(context);
  const { password } = await parseJson(context, passkeyRegistrationOptionsSchema);
  const { options, token } = await startPasskeyRegistration(
    context.locals.portal,
    user.id,
    context.locals.clientAddress,
    password,
  );
  setPasskeyChallenge(context, token);
  return ok({ options });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Start adding a passkey',
    description:
      'Confirms the password, then answers the options for the browser to make a discoverable ' +
      'passkey (resident key required, user verification preferred). The challenge works once, ' +
      'for 5 minutes, in this browser only (an HttpOnly cookie names it). With a session only.',
    access: 'signed-in',
    body: passkeyRegistrationOptionsSchema,
    answer: { status: 200, body: okEnvelope(passkeyRegistrationStartSchema) },
    errors: {
      ...SHARED_FAILURES.passkeysOff,
      400: 'The password is wrong or missing: `details` names the field.',
      429: 'Too many wrong passwords (RATE_LIMITED, with Retry-After).',
    },
  },
});
