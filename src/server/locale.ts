/**
 * Which language a request gets (README.md "Languages"), and the request-scoped locale the compiled
 * messages read: every message built while a request is handled is in that request's language, in
 * services as in pages. The storage lives in the compiled messages' runtime (src/paraglide, generated),
 * which reads it; it is installed there on first use, once per process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import Negotiator from 'negotiator';
import {
  getServerAsyncLocalStorage,
  overwriteServerAsyncLocalStorage,
} from '~/paraglide/runtime.js';
import { baseLocale, isLocale, locales, type Locale } from '~/shared/locale';

export interface LocaleSources {
  /** The signed-in user's saved preference. */
  preference: string | null | undefined;
  /** The language a link names (`?lang=`): a status e-mail's links open in the e-mail's language. */
  link?: string | null;
  /** The switcher's cookie. */
  cookie: string | undefined;
  acceptLanguage: string | null;
}

/** The user's preference, then the link's language, then the switcher's cookie, then Accept-Language, then English. */
export function chooseLocale({ preference, link, cookie, acceptLanguage }: LocaleSources): Locale {
  if (isLocale(preference)) return preference;
  if (isLocale(link)) return link;
  if (isLocale(cookie)) return cookie;
  if (acceptLanguage) {
    const [preferred] = new Negotiator({
      headers: { 'accept-language': acceptLanguage },
    }).languages([...locales]);
    if (isLocale(preferred)) return preferred;
  }
  return baseLocale;
}

/**
 * The server runs with --experimental-async-context-frame (server.mjs starts itself again with it on Node
 * 22; it is the default from Node 24): on Node 22 without it the store is carried by promise hooks, which
 * slow every await of every request (about 2.4× per await in a micro-benchmark).
 */
function requestLocales(): NonNullable<ReturnType<typeof getServerAsyncLocalStorage>> {
  let storage = getServerAsyncLocalStorage();
  if (!storage) {
    storage = new AsyncLocalStorage<{ locale?: Locale }>();
    overwriteServerAsyncLocalStorage(storage);
  }
  return storage;
}

/** Runs `handle` with `locale` as the language of every message it builds, awaited parts included. */
export function inLocale<T>(locale: Locale, handle: () => T): T {
  return requestLocales().run({ locale }, handle);
}
