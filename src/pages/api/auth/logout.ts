import { ok, handle } from '~/server/http/respond';
import { closeSession } from '~/server/http/session';

// Public: signing out without a session still clears the cookie.
export const POST = handle(async (context) => {
  await closeSession(context);
  return ok(null, { message: 'Logged out successfully' });
});
