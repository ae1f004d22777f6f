/** The language switcher's cookie: a year, for the server only, sent along on top-level navigation. */
import type { AstroCookies } from 'astro';
import { LOCALE_COOKIE, type Locale } from '~/shared/locale';

export function rememberLocale(cookies: AstroCookies, locale: Locale, secure: boolean): void {
  cookies.set(LOCALE_COOKIE, locale, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: 365 * 24 * 3600,
  });
}
