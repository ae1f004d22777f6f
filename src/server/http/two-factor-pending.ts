/**
 * The pending sign-in: after a right password, when a second step must follow, a cookie carries the
 * token of a pending sign-in held on the server (src/server/services/pending-sign-ins.ts) for five
 * minutes instead of a session. It opens nothing but that step: the code (POST /api/auth/login/2fa),
 * or with TWO_FACTOR=required-for-admins the enrolment (setup and enable).
 */
import type { APIContext } from 'astro';
import { m } from '~/paraglide/messages.js';
import { AppError } from '../errors';
import { assertPendingEnrolment, PENDING_SIGN_IN_MINUTES } from '../services/accounts';

type Context = Pick<APIContext, 'cookies' | 'locals'>;

const PENDING_COOKIE = 'portal_2fa_pending';
/** A token of 32 random bytes, base64url. */
const TOKEN_PATTERN = /^[\w-]{43}$/;

const cookieOptions = (secure: boolean) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure }) as const;

export function setPendingSignIn(context: Context, token: string): void {
  context.cookies.set(PENDING_COOKIE, token, {
    ...cookieOptions(context.locals.portal.config.isHttps),
    maxAge: PENDING_SIGN_IN_MINUTES * 60,
  });
}

/** The token the browser holds for a pending sign-in, if any; the server decides whether it still works. */
export function readPendingSignIn(context: Pick<APIContext, 'cookies'>): string | null {
  const token = context.cookies.get(PENDING_COOKIE)?.value;
  return token && TOKEN_PATTERN.test(token) ? token : null;
}

export function clearPendingSignIn(context: Context): void {
  if (context.cookies.has(PENDING_COOKIE))
    context.cookies.delete(PENDING_COOKIE, cookieOptions(context.locals.portal.config.isHttps));
}

/** With TWO_FACTOR=off every two-factor endpoint is unknown. */
export function requireTwoFactorOffered(context: Pick<APIContext, 'locals'>): void {
  if (context.locals.portal.config.twoFactor === 'off')
    throw new AppError('NOT_FOUND', m.error_endpoint_not_found());
}

/**
 * Who sets up two-factor sign-in: the signed-in user, or a pending sign-in that must enrol before it
 * may finish (an admin under TWO_FACTOR=required-for-admins). A pending sign-in that owes a code may
 * not: a stolen password must not replace the owner's authenticator.
 */
export async function twoFactorEnroller(
  context: Context,
): Promise<{ userId: number; pending: boolean }> {
  const { user } = context.locals;
  if (user) return { userId: user.id, pending: false };
  const token = readPendingSignIn(context);
  if (token === null) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  return { userId: await assertPendingEnrolment(context.locals.portal, token), pending: true };
}
