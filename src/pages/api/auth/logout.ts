import { ok, handle } from '~/server/http/respond';
import { closeSession } from '~/server/http/session';
import { m } from '~/paraglide/messages.js';
import { describeEndpoint } from '~/server/http/api-description';
import { doneEnvelopeSchema } from '~/shared/envelope';

// Public: signing out without a session still clears the cookie.
export const POST = handle(async (context) => {
  await closeSession(context);
  return ok(null, { message: m.auth_logged_out() });
});

export const openapi = describeEndpoint({
  POST: {
    summary: 'Sign out',
    description:
      'Ends the session and clears its cookie; without a session it only clears the cookie.',
    access: 'public',
    answer: { status: 200, body: doneEnvelopeSchema },
  },
});
