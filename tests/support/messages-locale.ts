/**
 * The language the compiled messages read in a unit test. The unit tier runs its files one after another
 * in the same module graph (vitest.config.ts: isolation off), so a test that reads messages in another
 * language puts the runtime's own getLocale back afterwards: the next file finds the runtime as a fresh
 * one is, its request-scoped locale (src/server/locale.ts) included.
 */
import { getLocale, overwriteGetLocale } from '~/paraglide/runtime.js';
import type { Locale } from '~/shared/locale';

const runtimeGetLocale = getLocale;

/** Every message built from now on is in `locale`, until restoreLocale. */
export function readMessagesIn(locale: Locale): void {
  overwriteGetLocale(() => locale);
}

/** The runtime's own getLocale again (English outside a request). */
export function restoreLocale(): void {
  overwriteGetLocale(runtimeGetLocale);
}
