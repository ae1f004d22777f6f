/**
 * The portal's languages: the catalogues in messages/ and the locales of project.inlang/settings.json.
 * Numbers and dates take the same tag to Intl ('en' formats as en-US, 'nl' as nl-NL).
 */
import { m } from '~/paraglide/messages.js';
import { baseLocale, isLocale, locales, type Locale } from '~/paraglide/runtime.js';

export { baseLocale, isLocale, locales, type Locale };

/** The switcher's choice, before sign-in and after: a plain cookie, read by the server only. */
export const LOCALE_COOKIE = 'portal_locale';
/** The query parameter by which a link names the language its page opens in (status e-mails' links). */
export const LOCALE_LINK_PARAMETER = 'lang';

/** Each language by its own name ("English", "Nederlands"), whatever the page's language. */
export function languageName(locale: Locale): string {
  return m.language_name({}, { locale });
}
