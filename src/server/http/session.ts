/**
 * The session cookie (HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https), and opening
 * and closing a session for a request, shared by the JSON API and the plain form posts.
 */
import type { APIContext, AstroCookies } from 'astro';
import { SESSION_COOKIE } from '~/shared/constants';
import { USER_MARKER_COOKIE } from '~/shared/offline-cache';
import type { LoginPayload, SessionUser } from '~/shared/validation';
import { m } from '~/paraglide/messages.js';
import type { Config } from '../config';
import { AppError } from '../errors';
import {
  signInAfterEnrolment,
  signInUser,
  signInWithSecondFactor,
  type SecondStep,
  endSession,
  signInWithPasskey,
} from '../services/accounts';
import type { PasskeySignInPayload } from '~/shared/passkeys';
import { clearPendingSignIn, readPendingSignIn, setPendingSignIn } from './two-factor-pending';

type RequestContext = Pick<APIContext, 'cookies' | 'locals'>;
type CookieConfig = Pick<Config, 'isHttps' | 'sessionMaxHours'>;

export function readSessionToken(cookies: AstroCookies): string | undefined {
  return cookies.get(SESSION_COOKIE)?.value;
}

/** Where a right password leads: a session, or a pending sign-in that owes a code, an enrolment or the passkey. */
export type SignInResult = { user: SessionUser } | { step: SecondStep };

export async function openSession(
  context: RequestContext,
  payload: LoginPayload,
): Promise<SignInResult> {
  const { portal } = context.locals;
  const outcome = await signInUser(
    portal,
    payload,
    context.locals.clientAddress,
    readSessionToken(context.cookies),
  );
  if (outcome.kind === 'second-factor') {
    setPendingSignIn(context, outcome.pendingToken);
    return { step: outcome.step };
  }
  return { user: startSession(context, outcome) };
}

function pendingToken(context: RequestContext): string {
  const token = readPendingSignIn(context);
  if (token === null) throw new AppError('AUTHENTICATION_ERROR', m.twofactor_pending_expired());
  return token;
}

/** Finishes a pending sign-in with its code (authenticator or recovery). */
export async function openSessionWithCode(
  context: RequestContext,
  code: string,
): Promise<SessionUser> {
  const { portal, clientAddress } = context.locals;
  const signedIn = await signInWithSecondFactor(
    portal,
    pendingToken(context),
    code,
    clientAddress,
    readSessionToken(context.cookies),
  );
  return startSession(context, signedIn);
}

/** Finishes a pending sign-in that had to enrol first, now that it has. */
export async function openSessionAfterEnrolment(context: RequestContext): Promise<SessionUser> {
  const { portal, clientAddress } = context.locals;
  const signedIn = await signInAfterEnrolment(
    portal,
    pendingToken(context),
    clientAddress,
    readSessionToken(context.cookies),
  );
  return startSession(context, signedIn);
}

/**
 * Signs in with a passkey's assertion, for the challenge this browser's cookie names: a pending
 * sign-in it had ends too.
 */
export async function openSessionWithPasskey(
  context: RequestContext,
  challengeToken: string | null,
  payload: PasskeySignInPayload,
): Promise<SessionUser> {
  const { portal, clientAddress } = context.locals;
  const signedIn = await signInWithPasskey(
    portal,
    challengeToken,
    payload,
    clientAddress,
    readSessionToken(context.cookies),
  );
  return startSession(context, signedIn);
}

function startSession(
  context: RequestContext,
  { user, token }: { user: SessionUser; token: string },
): SessionUser {
  const { config } = context.locals.portal;
  context.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config.isHttps,
    maxAge: config.sessionMaxHours * 3600,
  });
  clearPendingSignIn(context);
  markUser(context.cookies, user.id, config);
  return user;
}

export async function closeSession(context: RequestContext): Promise<void> {
  const { portal } = context.locals;
  await endSession(portal, readSessionToken(context.cookies));
  context.cookies.delete(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: portal.config.isHttps,
  });
  clearPendingSignIn(context);
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
    if (marked !== undefined)
      cookies.delete(USER_MARKER_COOKIE, { path: '/', sameSite: 'lax', secure: config.isHttps });
  } else if (marked !== String(userId)) {
    cookies.set(USER_MARKER_COOKIE, String(userId), {
      path: '/',
      sameSite: 'lax',
      secure: config.isHttps,
      maxAge: config.sessionMaxHours * 3600,
    });
  }
}
