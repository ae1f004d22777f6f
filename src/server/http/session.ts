/**
 * The session cookie (HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https), and opening
 * and closing a session for a request, shared by the JSON API and the plain form posts.
 */
import type { APIContext, AstroCookies } from 'astro';
import type { LoginPayload, SessionUser } from '~/shared/validation';
import { config, isHttps } from '../config';
import { signInUser, signOutUser } from '../services/auth';

const SESSION_COOKIE = 'portal_session';

type RequestContext = Pick<APIContext, 'cookies' | 'locals'>;

export function readSessionToken(cookies: AstroCookies): string | undefined {
  return cookies.get(SESSION_COOKIE)?.value;
}

export async function openSession(context: RequestContext, payload: LoginPayload): Promise<SessionUser> {
  const { user, token } = await signInUser(payload, context.locals.clientAddress, readSessionToken(context.cookies));
  context.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isHttps,
    maxAge: config.sessionMaxHours * 3600,
  });
  return user;
}

export async function closeSession(context: RequestContext): Promise<void> {
  await signOutUser(readSessionToken(context.cookies));
  context.cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps });
}
