import { setPasskeyChallenge } from '~/server/http/passkey-challenge';
import { handle, ok } from '~/server/http/respond';
import { startPasskeySignIn } from '~/server/services/accounts';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { passkeySignInStartSchema } from '~/shared/api/passkeys';
import { okEnvelope } from '~/shared/envelope';

// Public: signing in needs no username; the challenge is held for this browser only.
export const POST = handle(async (context) => {
  const { options, token } = await startPasskeySignIn(
    context.locals.portal,
    context.locals.clientAddress,
  );
  setPasskeyChallenge(context, token);
  return ok({ options });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Start signing in with a passkey',
    description:
      'Answers the options for `navigator.credentials.get` (no credentials listed: the ' +
      "authenticator offers its discoverable passkeys, also in the username field's autofill). " +
      'The challenge works once, for 5 minutes, in this browser only (an HttpOnly cookie names ' +
      'it).',
    access: 'public',
    answer: { status: 200, body: okEnvelope(passkeySignInStartSchema) },
    errors: {
      ...SHARED_FAILURES.passkeysOff,
      429: 'Too many challenges asked for from this address (RATE_LIMITED, with Retry-After).',
    },
  },
});
