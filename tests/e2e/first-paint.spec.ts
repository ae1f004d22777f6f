/**
 * Issue 14 "Slow and dropping links": a first visit paints from the HTML alone (the rules the page uses
 * are inline), a later page takes the stylesheet from the cache, and a status button tapped before the
 * receipts island hydrated still opens its map.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { findReceipt, signInAsAdmin } from './receipts-data';

/** daisyUI dark's primary colour, which the Sign in button is filled with. */
const PRIMARY_BUTTON = 'oklch(0.58 0.233 277.117)';

async function blockStylesheets(page: Page): Promise<void> {
  await page.route('**/*.css', (route) => route.abort());
}

test('a first visit to /login is styled with every stylesheet request refused', async ({ page }) => {
  await blockStylesheets(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCSS('background-color', PRIMARY_BUTTON);
  await expect(page.getByLabel('Username')).toHaveCSS('width', /^\d{3}(\.\d+)?px$/);
  await expect(page.locator('body')).toHaveCSS('min-height', '800px');
});

test('a first visit to /dashboard is styled with every stylesheet request refused', async ({ page }) => {
  await signInAsAdmin(page);
  await blockStylesheets(page);
  await page.goto('/dashboard');
  // The fixed top bar and the side menu beside the content (lg:drawer-open at 1280 px).
  await expect(page.getByRole('banner')).toHaveCSS('position', 'fixed');
  await expect(page.getByRole('navigation').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Total Receipts', exact: true })).toHaveCSS('border-radius', /^[1-9]/);
  await expect(page.locator('main')).toHaveCSS('max-width', '1280px');
});

test('the next page takes the stylesheet from the cache, not from the network again', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/dashboard');
  // The full stylesheet arrives after the paint, and is then in use.
  await expect(page.locator('link[data-deferred-css]')).toHaveAttribute('media', 'all');
  await page.getByRole('link', { name: 'Receipts', exact: true }).first().click();
  await expect(page).toHaveURL(/\/receipts$/);
  await expect(page.locator('link[data-deferred-css]')).toHaveCount(0);
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1);
  await expect(page.locator('head style')).toHaveCount(0);
  // The later page links the same file, which the browser does not fetch again (an immutable cache entry).
  const cached = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('.css')).map((entry) => (entry as PerformanceResourceTiming).transferSize),
  );
  expect(cached).toEqual([0]);
});

test('a status button tapped before the receipts table hydrated opens its map once it has', async ({ page }) => {
  await signInAsAdmin(page);
  const receipt = await findReceipt(page.request, 'any', () => true);
  // The island's scripts wait until the tap has been made.
  let releaseScripts!: () => void;
  const tapped = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.route('**/_astro/*.js', async (route) => {
    await tapped;
    await route.continue();
  });
  await page.goto('/receipts', { waitUntil: 'commit' });
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  await page.getByRole('row').filter({ hasText: receipt.number }).getByRole('button', { name: receipt.status, exact: true }).click();
  releaseScripts();
  await expect(page.getByRole('dialog', { name: 'Tracking Details' })).toBeVisible();
});
