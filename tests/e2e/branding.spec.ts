/**
 * The Logo Management and Background Management screens and the shell's logo, background and card opacity,
 * in a real browser. These settings show on every page of the admin-area portal, so each test puts
 * back what it changed.
 */
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { HTML_AS_PNG_FILE, TEXT_FILE, pngImage } from '../support/images';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL });
// One after another: each changes what the others look at.
test.describe.configure({ mode: 'serial' });

const LOGO_IMAGE = /^\/api\/logo\/image\?v=\d+$/;
const BACKGROUND_IMAGE = /url\("http:\/\/127\.0\.0\.1:\d+\/api\/background\/image\?v=\d+"\)/;

/** Every console error the Content Security Policy raised on a page: there must be none. */
function recordCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, ADMIN_AREA_URL);
});

/** Puts the shared portal back as the other admin-area tests expect it: no logo, no background, opacity 0.9. */
async function restoreDefaults(request: APIRequestContext, what: 'logo' | 'background'): Promise<void> {
  const headers = { Origin: ADMIN_AREA_URL };
  const deleted = await request.delete(`/api/${what}/current`, { headers });
  expect([200, 404]).toContain(deleted.status());
  if (what === 'background') {
    expect((await request.put('/api/background/opacity', { data: { opacity: 0.9 }, headers })).status()).toBe(200);
  }
}

/** The sign-in page as someone not signed in sees it. */
async function openLoginAnonymously(browser: Browser): Promise<{ page: Page; violations: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: ADMIN_AREA_URL });
  const page = await context.newPage();
  const violations = recordCspViolations(page);
  await page.goto('/login');
  return { page, violations, close: () => context.close() };
}

/** Drops a file on the upload area around `input`, as dragging it from the desktop does. */
async function dropFile(page: Page, input: Locator, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], name, { type: 'image/png' }));
      return transfer;
    },
    { name, data: [...bytes] },
  );
  const area = page.locator('label').filter({ has: input });
  await area.dispatchEvent('dragover', { dataTransfer });
  await area.dispatchEvent('drop', { dataTransfer });
}

const topBarLogo = (page: Page) => page.getByRole('banner').locator('img[data-brand-logo]');
const naturalWidth = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((image: HTMLImageElement) => image.naturalWidth);

test('an uploaded logo shows in the top bar and on the sign-in page; deleting it brings the default icon back', async ({ page, browser }) => {
  const violations = recordCspViolations(page);
  try {
    await openHydrated(page, '/admin/logo');
    await expect(page.getByRole('heading', { name: 'Logo Management' })).toBeVisible();
    await dropFile(page, page.getByLabel('Drop a logo here or click to browse'), 'acme-logo.png', pngImage({ width: 24, height: 24, rgb: [250, 180, 0] }));

    await expect(page.getByRole('status')).toHaveText('Logo uploaded successfully');
    const current = page.getByRole('region', { name: 'Current Logo' });
    await expect(current.getByText('acme-logo.png')).toBeVisible();
    await expect(current.getByText(/^\d+ Bytes$/)).toBeVisible();
    await expect(current.getByRole('img', { name: 'Current logo' })).toBeVisible();
    await expect(topBarLogo(page)).toHaveAttribute('src', LOGO_IMAGE);

    // Every page renders it from now on, not only the one the change was made on.
    await page.goto('/dashboard');
    await expect(topBarLogo(page)).toHaveAttribute('src', LOGO_IMAGE);
    await expect.poll(() => naturalWidth(page, 'header img[data-brand-logo]')).toBe(24);

    const login = await openLoginAnonymously(browser);
    await expect(login.page.locator('main img[data-brand-logo]')).toHaveAttribute('src', LOGO_IMAGE);
    await expect.poll(() => naturalWidth(login.page, 'main img[data-brand-logo]')).toBe(24);
    expect(login.violations).toEqual([]);
    await login.close();

    await openHydrated(page, '/admin/logo');
    await page.getByRole('button', { name: 'Delete Logo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Logo' });
    await expect(dialog.getByText('Are you sure you want to delete the current logo?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete Logo' }).click();
    await expect(page.getByRole('status')).toHaveText('Logo deleted successfully');
    await expect(topBarLogo(page)).toHaveAttribute('src', '/logo-default.svg');
    await page.reload();
    await expect(topBarLogo(page)).toHaveAttribute('src', '/logo-default.svg');
    expect(violations).toEqual([]);
  } finally {
    await restoreDefaults(page.request, 'logo');
  }
});

test('a logo that fails to load is replaced by the default icon, without breaking the CSP', async ({ page }) => {
  const violations = recordCspViolations(page);
  try {
    const upload = await page.request.post('/api/logo/upload', {
      headers: { Origin: ADMIN_AREA_URL },
      multipart: { logo: { name: 'logo.png', mimeType: 'image/png', buffer: pngImage() } },
    });
    expect(upload.status()).toBe(200);
    await page.route('**/api/logo/image**', (route) => route.abort());
    await page.goto('/dashboard');
    await expect(topBarLogo(page)).toHaveAttribute('src', '/logo-default.svg');
    await expect.poll(() => naturalWidth(page, 'header img[data-brand-logo]')).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  } finally {
    await restoreDefaults(page.request, 'logo');
  }
});

test('a background and a new card opacity show on the cards, the thumbnail and the sign-in page', async ({ page, browser }) => {
  const violations = recordCspViolations(page);
  try {
    await openHydrated(page, '/admin/background');
    await expect(page.getByText('No background image', { exact: true })).toBeVisible();
    await expect(page.getByText('Upload an image to customize the main content area background.')).toBeVisible();
    await expect(page.getByText('Supported formats: JPG, PNG, GIF, WebP. Maximum size: 4MB.')).toBeVisible();

    await page
      .getByLabel('Click to upload background image')
      .setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: pngImage({ width: 160, height: 90, rgb: [20, 90, 140] }) });
    await expect(page.getByRole('status')).toHaveText('Background uploaded successfully!');
    const current = page.getByRole('region', { name: 'Current Background' });
    await expect(current.getByText('harbour.png')).toBeVisible();
    await expect(current.getByText('90%', { exact: true })).toBeVisible();
    const thumbnail = current.getByRole('img', { name: 'Current background' });
    await expect(thumbnail).toHaveCSS('opacity', '0.9');
    await expect(page.locator('body')).toHaveCSS('background-image', BACKGROUND_IMAGE);

    const slider = page.getByLabel('Card opacity', { exact: true });
    const update = page.getByRole('button', { name: 'Update Opacity' });
    await expect(update).toBeDisabled();
    await slider.fill('0.35');
    await expect(page.getByText('35%', { exact: true })).toBeVisible();
    await expect(page.getByText('Click "Update Opacity" to apply changes')).toBeVisible();
    await update.click();
    await expect(page.getByRole('status')).toHaveText('Opacity updated successfully!');
    await expect(update).toBeDisabled();
    await expect(current).toHaveCSS('background-color', 'rgba(0, 0, 0, 0.35)');
    await expect(thumbnail).toHaveCSS('opacity', '0.35');
    await expect(current.getByText('35%', { exact: true })).toBeVisible();

    // From the server, on a fresh page view.
    await page.goto('/dashboard');
    await expect(page.getByRole('region', { name: 'Total Receipts' })).toHaveCSS('background-color', 'rgba(0, 0, 0, 0.35)');
    await expect(page.locator('body')).toHaveCSS('background-image', BACKGROUND_IMAGE);
    await expect(page.locator('body')).toHaveCSS('background-size', 'cover');
    await expect(page.locator('body')).toHaveCSS('background-attachment', 'fixed');

    const login = await openLoginAnonymously(browser);
    await expect(login.page.locator('main .surface')).toHaveCSS('background-color', 'rgba(0, 0, 0, 0.35)');
    await expect(login.page.locator('body')).toHaveCSS('background-image', BACKGROUND_IMAGE);
    expect(login.violations).toEqual([]);
    await login.close();

    await openHydrated(page, '/admin/background');
    await page.getByRole('button', { name: 'Delete Background' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Background' });
    await dialog.getByRole('button', { name: 'Delete Background' }).click();
    await expect(page.getByRole('status')).toHaveText('Background deleted successfully!');
    await expect(page.getByText('No background image', { exact: true })).toBeVisible();
    await expect(page.locator('body')).toHaveCSS('background-image', 'none');
    expect(violations).toEqual([]);
  } finally {
    await restoreDefaults(page.request, 'background');
  }
});

test('files that are not accepted images are refused with their exact messages, and nothing changes', async ({ page }) => {
  await openHydrated(page, '/admin/logo');
  // Named and declared a PNG: only the server, reading the bytes, can tell.
  await page
    .getByLabel('Drop a logo here or click to browse')
    .setInputFiles({ name: HTML_AS_PNG_FILE.name, mimeType: HTML_AS_PNG_FILE.type, buffer: HTML_AS_PNG_FILE.bytes });
  await expect(page.getByRole('alert')).toHaveText('Only JPEG, PNG, GIF, and WebP files are allowed');
  await page.getByLabel('Drop a logo here or click to browse').setInputFiles({ name: TEXT_FILE.name, mimeType: TEXT_FILE.type, buffer: TEXT_FILE.bytes });
  await expect(page.getByRole('alert')).toHaveText('Please select an image file');

  await openHydrated(page, '/admin/background');
  await page.getByLabel('Click to upload background image').setInputFiles({ name: TEXT_FILE.name, mimeType: TEXT_FILE.type, buffer: TEXT_FILE.bytes });
  await expect(page.getByRole('alert')).toHaveText('Please select a valid image file');
  await expect(page.getByText('No background image', { exact: true })).toBeVisible();
});
