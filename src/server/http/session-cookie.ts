/** The session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https. */
import type { AstroCookies } from 'astro';
import { config, isHttps } from '../config';

export const SESSION_COOKIE = 'portal_session';

export function readSessionToken(cookies: AstroCookies): string | undefined {
  return cookies.get(SESSION_COOKIE)?.value;
}

export function setSessionCookie(cookies: AstroCookies, token: string): void {
  cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isHttps,
    maxAge: config.sessionMaxHours * 3600,
  });
}

export function clearSessionCookie(cookies: AstroCookies): void {
  cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps });
}
