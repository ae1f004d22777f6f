/**
 * Where a visitor was going when sign-in interrupted them (a receipt's page from an e-mail, say): kept
 * in a short-lived cookie rather than the URL, so /login stays /login, and taken once after sign-in.
 */
import type { AstroCookies } from 'astro';

const RETURN_COOKIE = 'portal_return_to';
const RETURN_MAX_AGE_SECONDS = 15 * 60;
const cookieOptions = (secure: boolean) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure }) as const;

/** Only a path of this site: never an address elsewhere ('//host', '/\host', 'https://…'). */
export function localPath(value: unknown): string | null {
  return typeof value === 'string' && value.length <= 2_000 && /^\/(?![/\\])/.test(value)
    ? value
    : null;
}

export function rememberReturnPath(cookies: AstroCookies, path: string, secure: boolean): void {
  cookies.set(RETURN_COOKIE, path, { ...cookieOptions(secure), maxAge: RETURN_MAX_AGE_SECONDS });
}

/** The remembered path, if any; it stays until `forgetReturnPath` (the sign-in that uses it). */
export function readReturnPath(cookies: AstroCookies): string | null {
  return localPath(cookies.get(RETURN_COOKIE)?.value);
}

export function forgetReturnPath(cookies: AstroCookies, secure: boolean): void {
  if (cookies.has(RETURN_COOKIE)) cookies.delete(RETURN_COOKIE, cookieOptions(secure));
}
