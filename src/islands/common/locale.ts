/**
 * An island speaks the language its page was rendered in: the page passes `locale` as a prop and
 * the island's root adopts it before rendering, so the browser's render matches the server's. On
 * the server the request's locale is already in effect (src/server/locale.ts).
 */
import { overwriteGetLocale } from '~/paraglide/runtime.js';
import type { Locale } from '~/shared/locale';

export function adoptLocale(locale: Locale): void {
  if (!import.meta.env.SSR) overwriteGetLocale(() => locale);
}
