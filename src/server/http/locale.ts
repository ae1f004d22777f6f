/**
 * Which language a request gets (design.md "Languages"), and the request-scoped locale the compiled
 * messages read: every message built while a request is handled is in that request's language.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AstroCookies } from 'astro';
import Negotiator from 'negotiator';
import { overwriteServerAsyncLocalStorage } from '~/paraglide/runtime.js';
import { baseLocale, isLocale, LOCALE_COOKIE, locales, type Locale } from '~/shared/locale';
import { isHttps } from '../config';

/**
 * The server runs with --experimental-async-context-frame (package.json, the default from Node 24): on
 * Node 22 without it the store is carried by promise hooks, which slow every await of every request
 * (about 2.4× per await in a micro-benchmark).
 */
const requestLocale = new AsyncLocalStorage<{ locale?: Locale }>();
overwriteServerAsyncLocalStorage(requestLocale);

export interface LocaleSources {
  /** The signed-in user's saved preference. */
  preference: string | null | undefined;
  /** The switcher's cookie. */
  cookie: string | undefined;
  acceptLanguage: string | null;
}

/** The user's preference, then the switcher's cookie, then Accept-Language, then English. */
export function chooseLocale({ preference, cookie, acceptLanguage }: LocaleSources): Locale {
  if (isLocale(preference)) return preference;
  if (isLocale(cookie)) return cookie;
  if (acceptLanguage) {
    const [preferred] = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages([...locales]);
    if (isLocale(preferred)) return preferred;
  }
  return baseLocale;
}

/** Runs `handle` with `locale` as the language of every message it builds, awaited parts included. */
export function inLocale<T>(locale: Locale, handle: () => T): T {
  return requestLocale.run({ locale }, handle);
}

/** The switcher's cookie: a year, for the server only, sent along on top-level navigation. */
export function rememberLocale(cookies: AstroCookies, locale: Locale): void {
  cookies.set(LOCALE_COOKIE, locale, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps, maxAge: 365 * 24 * 3600 });
}
