import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { changePassword } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { changePasswordSchema } from '~/shared/validation';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';

export const POST = handle(async (context) => {
  const user = requireUser(context);
  const payload = await parseJson(context, changePasswordSchema);
  await changePassword(
    context.locals.portal,
    user,
    context.locals.sessionId!,
    context.locals.clientAddress,
    payload,
  );
  return ok(null, { message: m.profile_password_changed() });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Change your password',
    description:
      "Unless `signOutOthers` is false, ends the user's other sessions and revokes their API " +
      'tokens; this session stays.',
    access: 'signed-in',
    body: changePasswordSchema,
    answer: { status: 200, body: doneEnvelopeSchema },
    errors: {
      400: 'The input is refused, or the current password is wrong: `details` names the field.',
      429: 'Too many wrong passwords (RATE_LIMITED, with Retry-After).',
    },
  },
});
