/**
 * The pending sign-in: after a right password, when a second step must follow, a signed cookie names
 * the user for five minutes instead of a session. It opens nothing but that step: the code
 * (POST /api/auth/login/2fa), or with TWO_FACTOR=required-for-admins the enrolment (setup and enable).
 */
import type { APIContext } from 'astro';
import { m } from '~/paraglide/messages.js';
import { AppError } from '../errors';
import { signValue, verifySignedValue } from '../encryption';
import { assertPendingEnrolment } from '../services/auth';

type Context = Pick<APIContext, 'cookies' | 'locals'>;

const PENDING_COOKIE = 'portal_2fa_pending';
const PENDING_SECONDS = 5 * 60;

const cookieOptions = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax', secure }) as const;

export function setPendingSignIn(context: Context, userId: number): void {
  const { keys, clock, config } = context.locals.portal;
  // The expiry travels signed inside the value: the server's clock decides, not the browser's.
  const value = signValue(keys.twoFactorPending, `${userId}.${clock.now() + PENDING_SECONDS * 1000}`);
  context.cookies.set(PENDING_COOKIE, value, { ...cookieOptions(config.isHttps), maxAge: PENDING_SECONDS });
}

/** The user of an unexpired, untampered pending sign-in; null otherwise. */
export function readPendingSignIn(context: Context): number | null {
  const { keys, clock } = context.locals.portal;
  const signed = context.cookies.get(PENDING_COOKIE)?.value;
  const value = signed ? verifySignedValue(keys.twoFactorPending, signed) : null;
  const match = value ? /^(\d{1,15})\.(\d{1,16})$/.exec(value) : null;
  if (!match || Number(match[2]) <= clock.now()) return null;
  return Number(match[1]);
}

export function clearPendingSignIn(context: Context): void {
  if (context.cookies.has(PENDING_COOKIE)) context.cookies.delete(PENDING_COOKIE, cookieOptions(context.locals.portal.config.isHttps));
}

/** With TWO_FACTOR=off every two-factor endpoint is unknown. */
export function requireTwoFactorOffered(context: Pick<APIContext, 'locals'>): void {
  if (context.locals.portal.config.twoFactor === 'off') throw new AppError('NOT_FOUND', m.error_endpoint_not_found());
}

/**
 * Who sets up two-factor sign-in: the signed-in user, or a pending sign-in that must enrol before it
 * may finish (an admin under TWO_FACTOR=required-for-admins). A pending sign-in that owes a code may
 * not: a stolen password must not replace the owner's authenticator.
 */
export async function twoFactorEnroller(context: Context): Promise<{ userId: number; pending: boolean }> {
  const { user } = context.locals;
  if (user) return { userId: user.id, pending: false };
  const pendingUserId = readPendingSignIn(context);
  if (pendingUserId === null) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  await assertPendingEnrolment(context.locals.portal, pendingUserId);
  return { userId: pendingUserId, pending: true };
}
