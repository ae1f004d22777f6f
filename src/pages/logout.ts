import type { APIRoute } from 'astro';
import { clearSessionCookie, readSessionToken } from '~/server/http/session-cookie';
import { logout } from '~/server/services/auth';

/** 'Sign out' as a plain form post, so it works before or without JavaScript. */
export const POST: APIRoute = async (context) => {
  await logout(readSessionToken(context.cookies));
  clearSessionCookie(context.cookies);
  return context.redirect('/login', 303);
};
