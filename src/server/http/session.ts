/**
 * The session cookie (HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https), and opening
 * and closing a session for a request, shared by the JSON API and the plain form posts.
 */
import type { APIContext, AstroCookies } from 'astro';
import { SESSION_COOKIE } from '~/shared/constants';
import { USER_MARKER_COOKIE } from '~/shared/offline-cache';
import type { LoginPayload, SessionUser } from '~/shared/validation';
import type { Config } from '../config';
import { signInUser } from '../services/auth';
import { endSession } from '../services/sessions';

type RequestContext = Pick<APIContext, 'cookies' | 'locals'>;
type CookieConfig = Pick<Config, 'isHttps' | 'sessionMaxHours'>;

export function readSessionToken(cookies: AstroCookies): string | undefined {
  return cookies.get(SESSION_COOKIE)?.value;
}

export async function openSession(context: RequestContext, payload: LoginPayload): Promise<SessionUser> {
  const { portal } = context.locals;
  const { config } = portal;
  const { user, token } = await signInUser(portal, payload, context.locals.clientAddress, readSessionToken(context.cookies));
  context.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config.isHttps,
    maxAge: config.sessionMaxHours * 3600,
  });
  markUser(context.cookies, user.id, config);
  return user;
}

export async function closeSession(context: RequestContext): Promise<void> {
  const { portal } = context.locals;
  await endSession(portal, readSessionToken(context.cookies));
  context.cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: portal.config.isHttps });
  markUser(context.cookies, null, portal.config);
}

/**
 * Names the signed-in user (or no one) in a cookie the service worker can read: it shows kept screens
 * only to the user they belong to, and drops them for anyone else (src/shared/offline-cache.ts). It
 * holds no secret; the session cookie stays the authority.
 */
export function markUser(cookies: AstroCookies, userId: number | null, config: CookieConfig): void {
  const marked = cookies.get(USER_MARKER_COOKIE)?.value;
  if (userId === null) {
    if (marked !== undefined) cookies.delete(USER_MARKER_COOKIE, { path: '/', sameSite: 'lax', secure: config.isHttps });
  } else if (marked !== String(userId)) {
    cookies.set(USER_MARKER_COOKIE, String(userId), { path: '/', sameSite: 'lax', secure: config.isHttps, maxAge: config.sessionMaxHours * 3600 });
  }
}
