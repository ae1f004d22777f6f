import { ok, handle } from '~/server/http/respond';
import { clearSessionCookie, readSessionToken } from '~/server/http/session-cookie';
import { logout } from '~/server/services/auth';

// Public: signing out without a session still clears the cookie.
export const POST = handle(async (context) => {
  await logout(readSessionToken(context.cookies));
  clearSessionCookie(context.cookies);
  return ok(null, { message: 'Logged out successfully' });
});
