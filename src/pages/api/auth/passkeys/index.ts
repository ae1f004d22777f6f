import { requireUser } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { listPasskeys, passkeyAvailability } from '~/server/services/accounts';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { passkeyListSchema, type PasskeyList } from '~/shared/passkeys';

// Signed in with a session only: no passkey route is in TOKEN_READABLE_ROUTES, so a token never manages passkeys.

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const { portal } = context.locals;
  const list: PasskeyList = {
    availability: passkeyAvailability(portal.config),
    passkeys: await listPasskeys(portal, user.id),
  };
  return ok(list);
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'List your passkeys',
    description:
      "The caller's passkeys, and whether the portal offers passkeys at all (not when " +
      "PUBLIC_URL's host is an IP address). With a session only.",
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(passkeyListSchema) },
  },
});
