/**
 * First paint from the HTML alone (design.md "Budgets"): on a browser that has probably not cached the
 * site's stylesheet yet, the page carries the rules its own markup uses in a <style>, and the full
 * stylesheet arrives as `media="print"` (fetched at the lowest priority, blocking nothing) until a small
 * script switches it on once loaded. A cookie naming the stylesheet says it was sent: the next pages link
 * it as usual and the browser takes it from its immutable cache. A new build renames the stylesheet, so
 * an old cookie no longer matches and the next page is a first visit again.
 *
 * The pure steps live here; the critical rules come from beasties (first-paint-css.ts).
 */
import { createHash } from 'node:crypto';

export const STYLESHEET_COOKIE = 'stylesheet';
/** A year, like the stylesheet's own cache lifetime (server.mjs). */
export const STYLESHEET_COOKIE_MAX_AGE_SECONDS = 31_536_000;

/** Switches each deferred stylesheet on once it has loaded (an `onload` attribute is refused by the CSP). */
export const SWITCH_ON_SCRIPT =
  "for(const l of document.querySelectorAll('link[data-deferred-css]')){const on=()=>{l.media='all'};l.sheet?on():l.addEventListener('load',on)}";

const STYLESHEET_LINK = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)"\s*\/?>/;

/** The href of the page's build stylesheet (`/_astro/….css`), or null when it links none. */
export function stylesheetHref(html: string): string | null {
  return STYLESHEET_LINK.exec(html)?.[1] ?? null;
}

/** The value of the cookie that says `href` was sent to this browser: the file's name. */
export function stylesheetCookieValue(href: string): string {
  return href.slice(href.lastIndexOf('/') + 1);
}

/** Whether the cookie says this browser was sent this very stylesheet (not an older build's). */
export function isStylesheetProbablyCached(cookieValue: string | undefined, href: string): boolean {
  return cookieValue === stylesheetCookieValue(href);
}

/**
 * What the critical rules depend on: the class names, ids, attribute names and elements of the markup.
 * Pages with the same set share one computed result (a dashboard differs from another by its figures).
 */
export function markupKey(html: string): string {
  const tokens = new Set<string>();
  for (const [, name, attributes] of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    tokens.add(`<${name!.toLowerCase()}`);
    for (const [, value] of attributes!.matchAll(/\sclass="([^"]*)"/g)) for (const className of value!.split(/\s+/)) if (className) tokens.add(`.${className}`);
    for (const [, value] of attributes!.matchAll(/\sid="([^"]*)"/g)) tokens.add(`#${value}`);
    for (const [, attribute] of attributes!.replace(/"[^"]*"/g, '""').matchAll(/\s([a-zA-Z][\w:-]*)/g)) tokens.add(`[${attribute}`);
  }
  return createHash('sha256').update([...tokens].sort().join(' ')).digest('base64');
}

/** The CSP source that allows exactly this inline content: `'sha256-…'`. */
export function hashSource(content: string): string {
  return `'sha256-${createHash('sha256').update(content).digest('base64')}'`;
}

/**
 * The page with its module scripts fetched at low priority: they run after parsing anyway (deferred),
 * so they should not compete with the page's images, nor count as render-blocking for Lighthouse,
 * which takes any high-priority script for one.
 */
export function withLowPriorityModuleScripts(html: string): string {
  return html.replace(/<script type="module" src="/g, '<script type="module" fetchpriority="low" src="');
}

/**
 * The page with `criticalCss` inline where its stylesheet link was, the link deferred behind it, and the
 * script that switches it on at the end of the body.
 */
export function withInlineCriticalCss(html: string, criticalCss: string): string {
  const link = STYLESHEET_LINK.exec(html);
  if (!link) return html;
  const deferred = `<style>${criticalCss}</style><link rel="stylesheet" href="${link[1]}" media="print" data-deferred-css>`;
  const withStyle = html.slice(0, link.index) + deferred + html.slice(link.index + link[0].length);
  const bodyEnd = withStyle.lastIndexOf('</body>');
  const script = `<script>${SWITCH_ON_SCRIPT}</script>`;
  return bodyEnd === -1 ? withStyle + script : withStyle.slice(0, bodyEnd) + script + withStyle.slice(bodyEnd);
}
