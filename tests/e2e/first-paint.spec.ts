/**
 * First paint on slow links (README.md "First paint on slow links"): a first visit paints from the HTML alone (the rules the page uses
 * are inline instead of the stylesheet), the next page downloads the stylesheet and later ones take it
 * from the cache, and a status button tapped before the receipts island hydrated still opens its map.
 */
import type { Page } from '@playwright/test';
import { expect, holdScripts, signInAsAdmin, test } from './fixtures';
import { findReceipt } from './receipts-data';

/** daisyUI dark's primary colour, which the Sign in button is filled with. */
const PRIMARY_BUTTON = 'oklch(0.58 0.233 277.117)';

async function blockStylesheets(page: Page): Promise<void> {
  await page.route('**/*.css', (route) => route.abort());
}

test('a first visit to /login is styled with every stylesheet request refused', async ({
  page,
}) => {
  await blockStylesheets(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCSS(
    'background-color',
    PRIMARY_BUTTON,
  );
  await expect(page.getByLabel('Username')).toHaveCSS('width', /^\d{3}(\.\d+)?px$/);
  await expect(page.locator('body')).toHaveCSS('min-height', '800px');
});

test('a first visit to /dashboard is styled with every stylesheet request refused', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await blockStylesheets(page);
  await page.goto('/dashboard');
  // The fixed top bar and the side menu beside the content (lg:drawer-open at 1280 px).
  await expect(page.getByRole('banner')).toHaveCSS('position', 'fixed');
  await expect(page.getByRole('navigation').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Total Receipts', exact: true })).toHaveCSS(
    'border-radius',
    /^[1-9]/,
  );
  await expect(page.locator('main')).toHaveCSS('max-width', '1280px');
});

test('the first page downloads no stylesheet, the next one downloads it once, and later ones take it from a cache', async ({
  page,
}) => {
  // Stylesheet downloads from the server, by the page or by the service worker on its behalf. Whether the
  // worker controls a page yet depends on when it activated: its own fetch of a stylesheet the page already
  // had comes from the browser's cache, and carries no bytes over the wire.
  const downloads: string[] = [];
  page.context().on('requestfinished', async (request) => {
    if (!request.url().endsWith('.css') || (await request.response())?.fromServiceWorker()) return;
    if ((await request.sizes()).responseBodySize > 0) downloads.push(request.url());
  });
  await signInAsAdmin(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Total Receipts', exact: true })).toBeVisible();
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);

  await page.getByRole('link', { name: 'Locations', exact: true }).first().click();
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1);
  await expect(page.locator('head style')).toHaveCount(0);
  await expect.poll(() => downloads.length).toBe(1);

  await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1);
  await expect(page.locator('head style')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Total Receipts', exact: true })).toHaveCSS(
    'border-radius',
    /^[1-9]/,
  );
  expect(downloads).toHaveLength(1);
});

test('a status button tapped before the receipts table hydrated opens its map once it has', async ({
  page,
}) => {
  await signInAsAdmin(page);
  const receipt = await findReceipt(page.request, 'any', () => true);
  // The island's scripts wait until the tap has been made.
  const releaseScripts = await holdScripts(page);
  await page.goto('/receipts', { waitUntil: 'commit' });
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  await page
    .getByRole('row')
    .filter({ hasText: receipt.number })
    .getByRole('button', { name: receipt.status, exact: true })
    .click();
  releaseScripts();
  await expect(page.getByRole('dialog', { name: 'Tracking Details' })).toBeVisible();
});

test('the receipts page downloads no island code until a person reaches for it, and the first pointer over it hydrates it', async ({
  page,
}) => {
  await signInAsAdmin(page);
  const islandScripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && request.url().includes('/_astro/'))
      islandScripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/receipts', { waitUntil: 'load' });
  const island = page.locator('astro-island[client="interaction"]');
  await expect(island).toHaveAttribute('ssr', '');
  // The rows, the View links and the search form already work as HTML.
  await expect(page.getByRole('link', { name: 'View' }).first()).toHaveAttribute(
    'href',
    /^\/receipts\/\d+$/,
  );
  // Once the page has nothing more to fetch, it has fetched no island code, and the island still waits.
  await page.waitForLoadState('networkidle');
  await expect(island).toHaveAttribute('ssr', '');
  const componentUrl = new URL((await island.getAttribute('component-url'))!, page.url()).pathname;
  expect(islandScripts).not.toContain(componentUrl);

  await page.getByRole('table').hover();
  await expect(island).not.toHaveAttribute('ssr');
  expect(islandScripts).toContain(componentUrl);
});
