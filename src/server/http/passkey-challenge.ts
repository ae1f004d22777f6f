/**
 * The cookie that binds a passkey ceremony's challenge to the browser that asked for it
 * (src/server/services/passkeys/challenges.ts): a random token, HttpOnly, for the challenge's five
 * minutes. A new ceremony replaces it; the verifying request spends it.
 */
import type { APIContext } from 'astro';
import { CHALLENGE_MINUTES } from '../services/accounts';

type Context = Pick<APIContext, 'cookies' | 'locals'>;

const CHALLENGE_COOKIE = 'portal_passkey_challenge';
/** A token of 32 random bytes, base64url. */
const TOKEN_PATTERN = /^[\w-]{43}$/;

const cookieOptions = (secure: boolean) =>
  ({ path: '/api/auth/passkeys', httpOnly: true, sameSite: 'strict', secure }) as const;

export function setPasskeyChallenge(context: Context, token: string): void {
  context.cookies.set(CHALLENGE_COOKIE, token, {
    ...cookieOptions(context.locals.portal.config.isHttps),
    maxAge: CHALLENGE_MINUTES * 60,
  });
}

/** The browser's token, spent: the cookie is cleared whatever the ceremony's outcome. */
export function takePasskeyChallenge(context: Context): string | null {
  const token = context.cookies.get(CHALLENGE_COOKIE)?.value;
  if (token !== undefined)
    context.cookies.delete(CHALLENGE_COOKIE, cookieOptions(context.locals.portal.config.isHttps));
  return token && TOKEN_PATTERN.test(token) ? token : null;
}
