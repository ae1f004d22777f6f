/**
 * Why a signed-in reader landed on the dashboard instead of the page they asked for (an address that
 * does not exist, or an admin's page): kept in a cookie for the next page only, and said there once.
 */
import type { AstroCookies } from 'astro';
import { m } from '~/paraglide/messages.js';

const NOTICE_COOKIE = 'portal_notice';
const NOTICE_MAX_AGE_SECONDS = 60;
const cookieOptions = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax', secure }) as const;

const NOTICES = { missing: m.notice_page_missing, 'admin-only': m.notice_page_admin_only } as const;
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
