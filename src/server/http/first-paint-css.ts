/**
 * The rules of the site's stylesheet a page's own markup uses (beasties), kept per markup shape: the
 * first computation of a page takes a few hundred milliseconds, the next ones a lookup.
 */
import path from 'node:path';
import Beasties from 'beasties';
import { LRUCache } from 'lru-cache';
import { freshnessClass } from '~/islands/common/freshness-style';
import { markupKey, withoutUnreadCustomProperties } from './first-paint';

/** Built assets, where server.mjs serves them from. */
const CLIENT_DIR = path.resolve('dist/client');
/** Page shapes are few (a page, its empty and failed states, per language); this bounds odd ones. */
const MAX_SHAPES = 200;

const beasties = new Beasties({
  path: CLIENT_DIR,
  publicPath: '/',
  // Only the rules are wanted; the link is rewritten by withInlineCriticalCss.
  preload: 'media',
  pruneSource: false,
  reduceInlineStyles: false,
  mergeStylesheets: true,
  inlineFonts: false,
  preloadFonts: false,
  compress: true,
  logLevel: 'silent',
  // The theme's colours sit on `:where(:root),:root:has(…),[data-theme=dark]`, which beasties' selector
  // matching gives up on: without them no colour applies.
  // Rules for a state of a `group` ancestor (focus, hover) are dropped by its matching too: the
  // freshness tooltip would then not open on a first visit.
  allowRules: [/:root/, /\[data-theme/, /:where\(\.group\)/],
});

/**
 * Classes the pages' plain scripts put on the markup later (a stale "Updated … ago", a field the sign-in
 * form marks as wrong): an element carrying them joins the markup beasties reads, so their rules are kept.
 */
const SCRIPT_CLASSES = [freshnessClass(true), 'input-error'].join(' ');

const computed = new LRUCache<string, Promise<string>>({ max: MAX_SHAPES });

/** The stylesheet rules `html` uses; '' when beasties finds none or fails (the page then waits for the file). */
export function criticalCss(html: string): Promise<string> {
  const key = markupKey(html);
  let rules = computed.get(key);
  if (!rules) {
    rules = extractRules(html);
    computed.set(key, rules);
  }
  return rules;
}

async function extractRules(html: string): Promise<string> {
  try {
    // Beasties reads the linked stylesheet only: without the page's own <style>s nothing else is inlined.
    const markup = html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '').replace('</body>', `<i class="${SCRIPT_CLASSES}"></i></body>`);
    const processed = await beasties.process(markup);
    return withoutUnreadCustomProperties(/<style>([\s\S]*?)<\/style>/.exec(processed)?.[1] ?? '', html);
  } catch (error) {
    console.error('Critical CSS failed:', error);
    return '';
  }
}
