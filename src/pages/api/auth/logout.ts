import { ok, handle } from '~/server/http/respond';
import { closeSession } from '~/server/http/session';
import { m } from '~/paraglide/messages.js';

// Public: signing out without a session still clears the cookie.
export const POST = handle(async (context) => {
  await closeSession(context);
  return ok(null, { message: m.auth_logged_out() });
});
