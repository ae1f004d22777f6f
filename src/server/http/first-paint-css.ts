/**
 * What a first visit's page needs from the build (src/server/http/first-paint.ts): the rules of the
 * site's stylesheet its own markup uses (beasties), kept per markup shape, and the static imports of
 * the built client modules. The first computation of a page takes a few hundred milliseconds, the
 * next ones a lookup.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Beasties from 'beasties';
import { LRUCache } from 'lru-cache';
import { freshnessClass } from '~/shared/freshness-style';
import { markupKey, staticImports, withoutUnreadCustomProperties } from './first-paint';
import type { Logger } from '../logger';

/** Page shapes are few (a page, its empty and failed states, per language); this bounds odd ones. */
const MAX_SHAPES = 200;

/**
 * Classes the pages' plain scripts put on the markup later (a stale "Updated … ago", a field the sign-in
 * form marks as wrong): an element carrying them joins the markup beasties reads, so their rules are kept.
 */
const SCRIPT_CLASSES = [freshnessClass(true), 'input-error'].join(' ');

export class FirstPaint {
  private readonly beasties: Beasties;
  private readonly computed = new LRUCache<string, Promise<string>>({ max: MAX_SHAPES });
  private readonly imports = new Map<string, readonly string[]>();

  /** @param clientDir the built assets, where server.mjs serves them from */
  constructor(
    private readonly log: Logger,
    private readonly clientDir = path.resolve('dist/client'),
  ) {
    this.beasties = new Beasties({
      path: clientDir,
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
  }

  /** The stylesheet rules `html` uses; '' when beasties finds none or fails (the page then waits for the file). */
  criticalCss(html: string): Promise<string> {
    const key = markupKey(html);
    let rules = this.computed.get(key);
    if (!rules) {
      rules = this.extractRules(html);
      this.computed.set(key, rules);
    }
    return rules;
  }

  /** The static imports of the built module at `href` (`/_astro/….js`); none for anything else. */
  builtModuleImports(href: string): readonly string[] {
    let found = this.imports.get(href);
    if (!found) {
      found = href.startsWith('/_astro/') && !href.includes('..') ? this.readImports(href) : [];
      this.imports.set(href, found);
    }
    return found;
  }

  private readImports(href: string): string[] {
    try {
      return staticImports(readFileSync(path.join(this.clientDir, href), 'utf8'), href);
    } catch {
      return [];
    }
  }

  private async extractRules(html: string): Promise<string> {
    try {
      // Beasties reads the linked stylesheet only: without the page's own <style>s nothing else is inlined.
      const markup = html
        .replace(/<style[^>]*>[\s\S]*?<\/style>/g, '')
        .replace('</body>', `<i class="${SCRIPT_CLASSES}"></i></body>`);
      const processed = await this.beasties.process(markup);
      return withoutUnreadCustomProperties(
        /<style>([\s\S]*?)<\/style>/.exec(processed)?.[1] ?? '',
        html,
      );
    } catch (error) {
      this.log.error({ component: 'http', err: error }, 'Critical CSS failed');
      return '';
    }
  }
}
