/**
 * What the next page should say once: why a signed-in reader landed on the dashboard instead of the
 * page they asked for (an address that does not exist, or an admin's page), or, on the sign-in page,
 * that a new password is set. Kept in a cookie for the next page only.
 */
import type { AstroCookies } from 'astro';
import { m } from '~/paraglide/messages.js';

const NOTICE_COOKIE = 'portal_notice';
const NOTICE_MAX_AGE_SECONDS = 60;
const cookieOptions = (secure: boolean) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure }) as const;

const NOTICES = {
  missing: m.notice_page_missing,
  'admin-only': m.notice_page_admin_only,
  'password-reset': m.account_reset_done,
  'invitation-accepted': m.account_invite_done,
} as const;
export type RedirectNotice = keyof typeof NOTICES;

export function leaveNotice(cookies: AstroCookies, notice: RedirectNotice, secure: boolean): void {
  cookies.set(NOTICE_COOKIE, notice, { ...cookieOptions(secure), maxAge: NOTICE_MAX_AGE_SECONDS });
}

/** The notice's text in the reader's language, taken once; null when there is none. */
export function takeNotice(cookies: AstroCookies, secure: boolean): string | null {
  const notice = cookies.get(NOTICE_COOKIE)?.value;
  if (notice === undefined) return null;
  cookies.delete(NOTICE_COOKIE, cookieOptions(secure));
  return Object.hasOwn(NOTICES, notice) ? NOTICES[notice as RedirectNotice]() : null;
}
