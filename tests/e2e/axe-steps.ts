/**
 * axe-core's checks, run in the page itself (the portal's pages have no frames). axe's source goes into
 * a page once per document, and only the violations come back with their elements: @axe-core/playwright
 * put the 560 KB source in twice per check and described every passing element too, about half of what
 * a check cost on a 2-core machine.
 */
import type { Page } from '@playwright/test';
import axe from 'axe-core';

type WithAxe = Window & { axe?: typeof axe };

/** The violations of `rules` on the page as it is now. */
export async function axeViolations(page: Page, rules: string[]): Promise<axe.Result[]> {
  if (!(await page.evaluate(() => (window as WithAxe).axe !== undefined)))
    await page.evaluate(axe.source);
  return page.evaluate(
    async (values) =>
      (
        await (window as WithAxe).axe!.run(document, {
          runOnly: { type: 'rule', values },
          // The other kinds of result come back as one element each instead of every element checked.
          resultTypes: ['violations'],
        })
      ).violations,
    rules,
  );
}
