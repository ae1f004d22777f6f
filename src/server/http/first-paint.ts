/**
 * First paint from the HTML alone (README.md "First paint on slow links"): the first page a browser
 * gets from this build carries the rules its own markup uses in a <style> instead of the stylesheet
 * link, so it paints without another request and downloads no rule it does not use. A cookie naming
 * the stylesheet says a page was shown: the next pages link the stylesheet as usual, the first of
 * them downloads it, and the browser takes it from its immutable cache after that. A new build
 * renames the stylesheet, so an old cookie no longer matches and the next page is a first page
 * again.
 *
 * A page with islands links the stylesheet on a first visit too: what its islands render after the
 * server's markup needs rules that markup does not show.
 *
 * The pure steps live here; the critical rules come from beasties (first-paint-css.ts).
 */
import { createHash } from 'node:crypto';
import postcss, { type AtRule, type Container } from 'postcss';

export const STYLESHEET_COOKIE = 'stylesheet';
/** A year, like the stylesheet's own cache lifetime (server.mjs). */
export const STYLESHEET_COOKIE_MAX_AGE_SECONDS = 31_536_000;

const STYLESHEET_LINK = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)"\s*\/?>/;

/** The href of the page's build stylesheet (`/_astro/….css`), or null when it links none. */
export function stylesheetHref(html: string): string | null {
  return STYLESHEET_LINK.exec(html)?.[1] ?? null;
}

/** The value of the cookie that says a page of the build linking `href` was shown: the file's name. */
export function stylesheetCookieValue(href: string): string {
  return href.slice(href.lastIndexOf('/') + 1);
}

/** Whether the cookie says this browser was shown a page of this very build (not an older one's). */
export function isFirstPage(cookieValue: string | undefined, href: string): boolean {
  return cookieValue !== stylesheetCookieValue(href);
}

/** Whether the page has islands (React components hydrated in the browser). */
export function hasIslands(html: string): boolean {
  return html.includes('<astro-island');
}

/**
 * What the critical rules depend on: the class names, ids, attribute names and elements of the markup.
 * Pages with the same set share one computed result (a dashboard differs from another by its figures).
 */
export function markupKey(html: string): string {
  const tokens = new Set<string>();
  for (const [, name, attributes] of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    tokens.add(`<${name!.toLowerCase()}`);
    for (const [, value] of attributes!.matchAll(/\sclass="([^"]*)"/g))
      for (const className of value!.split(/\s+/)) if (className) tokens.add(`.${className}`);
    for (const [, value] of attributes!.matchAll(/\sid="([^"]*)"/g)) tokens.add(`#${value}`);
    for (const [, attribute] of attributes!
      .replace(/"[^"]*"/g, '""')
      .matchAll(/\s([a-zA-Z][\w:-]*)/g))
      tokens.add(`[${attribute}`);
  }
  return createHash('sha256')
    .update([...tokens].sort().join(' '))
    .digest('base64');
}

/** The CSP source that allows exactly this inline content: `'sha256-…'`. */
export function hashSource(content: string): string {
  return `'sha256-${createHash('sha256').update(content).digest('base64')}'`;
}

/** The modules a built module imports statically (`from"./x.js"`, `import"./x.js"`), as hrefs beside it. */
export function staticImports(source: string, href: string): string[] {
  const folder = href.slice(0, href.lastIndexOf('/') + 1);
  return [
    ...new Set(
      [...source.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map(
        (match) => folder + match[1],
      ),
    ),
  ];
}

/**
 * The page with its module scripts, the modules of its islands, and the modules they import,
 * fetched at low priority: they run after parsing anyway (deferred), so they should not compete
 * with the page's images, nor count as render-blocking for Lighthouse, which takes any
 * high-priority script for one. The imports would be fetched at high priority once the script
 * arrives, and an island's component and renderer only once Astro's island script asks for them (an
 * island hydrated on load): a low-priority modulepreload fetches each at once, instead of a round
 * trip per level of imports. `importsOf` gives a module's static imports.
 */
export function withLowPriorityModuleScripts(
  html: string,
  importsOf: (href: string) => readonly string[] = () => [],
): string {
  const preloaded = new Set<string>();
  const preloads = (hrefs: readonly string[]): string => {
    const links: string[] = [];
    const pending = [...hrefs];
    while (pending.length) {
      const href = pending.shift()!;
      if (preloaded.has(href)) continue;
      preloaded.add(href);
      links.push(`<link rel="modulepreload" href="${href}" fetchpriority="low">`);
      pending.push(...importsOf(href));
    }
    return links.join('');
  };
  return html.replace(
    /<script type="module" src="([^"]+)"|<astro-island\s[^>]*>/g,
    (tag, src: string | undefined) => {
      if (src)
        return `${preloads(importsOf(src))}<script type="module" fetchpriority="low" src="${src}"`;
      // Only an island hydrated on load surely needs its modules now (not one waiting to be visible or touched).
      if (!/\sclient="load"/.test(tag)) return tag;
      const islandModules = [
        /\scomponent-url="([^"]+)"/.exec(tag)?.[1],
        /\srenderer-url="([^"]+)"/.exec(tag)?.[1],
      ].filter((href) => href !== undefined);
      return preloads(islandModules) + tag;
    },
  );
}

/** The page with `criticalCss` inline in place of its stylesheet link. */
export function withInlineCriticalCss(html: string, criticalCss: string): string {
  const link = STYLESHEET_LINK.exec(html);
  if (!link) return html;
  return (
    html.slice(0, link.index) +
    `<style>${criticalCss}</style>` +
    html.slice(link.index + link[0].length)
  );
}

/** Tailwind's fallback for browsers without `@property`: the same custom properties set on every element. */
const isPropertiesFallback = (node: Container | undefined): boolean =>
  !!node &&
  ((node.type === 'atrule' &&
    (node as AtRule).name === 'layer' &&
    (node as AtRule).params === 'properties') ||
    isPropertiesFallback(node.parent as Container | undefined));

const VAR_READ = /var\(\s*(--[\w-]+)/g;

/**
 * The critical `css` of `html` without the registrations of custom properties that neither its rules nor
 * the page (its own styles) read: `@property --tw-…` and their fallback declarations. Tailwind registers
 * all of them with every stylesheet while the few rules a page uses read a handful, and a registration
 * nothing reads changes nothing on the page.
 */
export function withoutUnreadCustomProperties(css: string, html: string): string {
  const root = postcss.parse(css);
  const read = new Set([...html.matchAll(VAR_READ)].map(([, name]) => name!));
  root.walkDecls((declaration) => {
    for (const [, name] of declaration.value.matchAll(VAR_READ)) read.add(name!);
  });
  root.walkAtRules('property', (rule) => {
    if (!read.has(rule.params.trim())) rule.remove();
  });
  root.walkDecls(/^--/, (declaration) => {
    if (!read.has(declaration.prop) && isPropertiesFallback(declaration.parent))
      declaration.remove();
  });
  removeEmptyBlocks(root);
  return root.toString();
}

function removeEmptyBlocks(container: Container): void {
  for (const node of [...(container.nodes ?? [])]) {
    if (node.type !== 'rule' && node.type !== 'atrule') continue;
    if (!node.nodes) continue;
    removeEmptyBlocks(node);
    if (node.nodes.length === 0) node.remove();
  }
}
