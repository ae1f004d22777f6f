/**
 * The Logo Management and Background Management screens and the shell's logo, background and card opacity,
 * in a real browser. These settings show on every page of the admin-area portal, so each test puts
 * back what it changed.
 */
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { HTML_AS_PNG_FILE, TEXT_FILE, cameraPhoto, pngImage } from '../support/images';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL });
// One after another: each changes what the others look at.
test.describe.configure({ mode: 'serial' });

/** One of the logo's sizes (never the upload): WebP as the screen shows it after an upload, else the page's fallback format. */
const LOGO_IMAGE = /^\/api\/logo\/image\/\d+\.(webp|png)\?v=\d+$/;
/** One of the background's widths (never the upload), in AVIF as the server's CSS offers it first, or WebP as the screen sets it after an upload. */
const BACKGROUND_IMAGE =
  /"http:\/\/127\.0\.0\.1:\d+\/api\/background\/image\/\d+\.(avif|webp)\?v=\d+"/;

/** Every console error the Content Security Policy raised on a page: there must be none. */
function recordCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      violations.push(message.text());
  });
  return violations;
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, ADMIN_AREA_URL);
});

/** Puts the shared portal back as the other admin-area tests expect it: no logo, no background, opacity 0.9. */
async function restoreDefaults(
  request: APIRequestContext,
  what: 'logo' | 'background',
): Promise<void> {
  const headers = { Origin: ADMIN_AREA_URL };
  const deleted = await request.delete(`/api/${what}/current`, { headers });
  expect([200, 404]).toContain(deleted.status());
  if (what === 'background') {
    expect(
      (await request.put('/api/background/opacity', { data: { opacity: 0.9 }, headers })).status(),
    ).toBe(200);
  }
}

/** The sign-in page as someone not signed in sees it. */
async function openLoginAnonymously(
  browser: Browser,
): Promise<{ page: Page; violations: string[]; close: () => Promise<void> }> {
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

test('an uploaded logo shows in the top bar and on the sign-in page; deleting it brings the default icon back', async ({
  page,
  browser,
}) => {
  const violations = recordCspViolations(page);
  try {
    await openHydrated(page, '/admin/logo');
    await expect(page.getByRole('heading', { name: 'Logo Management' })).toBeVisible();
    await dropFile(
      page,
      page.getByLabel('Drop a logo here or click to browse'),
      'acme-logo.png',
      pngImage({ width: 24, height: 24, rgb: [250, 180, 0] }),
    );

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
    await expect(login.page.locator('main img[data-brand-logo]')).toHaveAttribute(
      'src',
      LOGO_IMAGE,
    );
    await expect.poll(() => naturalWidth(login.page, 'main img[data-brand-logo]')).toBe(24);
    expect(login.violations).toEqual([]);
    await login.close();

    await openHydrated(page, '/admin/logo');
    await page.getByRole('button', { name: 'Delete Logo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Logo' });
    await expect(
      dialog.getByText('Are you sure you want to delete the current logo?'),
    ).toBeVisible();
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

test('a logo that fails to load is replaced by the default icon, without breaking the CSP', async ({
  page,
}) => {
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

test('a background and a new card opacity show on the cards, the thumbnail and the sign-in page', async ({
  page,
  browser,
}) => {
  const violations = recordCspViolations(page);
  try {
    await openHydrated(page, '/admin/background');
    await expect(page.getByText('No background image', { exact: true })).toBeVisible();
    await expect(
      page.getByText('Upload an image to customize the main content area background.'),
    ).toBeVisible();
    await expect(
      page.getByText('Supported formats: JPG, PNG, GIF, WebP. Maximum size: 4MB.'),
    ).toBeVisible();

    await page.getByLabel('Click to upload background image').setInputFiles({
      name: 'harbour.png',
      mimeType: 'image/png',
      buffer: pngImage({ width: 160, height: 90, rgb: [20, 90, 140] }),
    });
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
    await expect(page.getByRole('region', { name: 'Total Receipts' })).toHaveCSS(
      'background-color',
      'rgba(0, 0, 0, 0.35)',
    );
    await expect(page.locator('body')).toHaveCSS('background-image', BACKGROUND_IMAGE);
    await expect(page.locator('body')).toHaveCSS('background-size', 'cover');
    await expect(page.locator('body')).toHaveCSS('background-attachment', 'fixed');

    const login = await openLoginAnonymously(browser);
    await expect(login.page.locator('main .surface')).toHaveCSS(
      'background-color',
      'rgba(0, 0, 0, 0.35)',
    );
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

test('files that are not accepted images are refused with their exact messages, and nothing changes', async ({
  page,
}) => {
  await openHydrated(page, '/admin/logo');
  // Named and declared a PNG: only the server, reading the bytes, can tell.
  await page.getByLabel('Drop a logo here or click to browse').setInputFiles({
    name: HTML_AS_PNG_FILE.name,
    mimeType: HTML_AS_PNG_FILE.type,
    buffer: HTML_AS_PNG_FILE.bytes,
  });
  await expect(page.getByRole('alert')).toHaveText(
    'Only JPEG, PNG, GIF, and WebP files are allowed',
  );
  await page
    .getByLabel('Drop a logo here or click to browse')
    .setInputFiles({ name: TEXT_FILE.name, mimeType: TEXT_FILE.type, buffer: TEXT_FILE.bytes });
  await expect(page.getByRole('alert')).toHaveText('Please select an image file');

  await openHydrated(page, '/admin/background');
  await page
    .getByLabel('Click to upload background image')
    .setInputFiles({ name: TEXT_FILE.name, mimeType: TEXT_FILE.type, buffer: TEXT_FILE.bytes });
  await expect(page.getByRole('alert')).toHaveText('Please select a valid image file');
  await expect(page.getByText('No background image', { exact: true })).toBeVisible();
});

/** Every response of a first visit to /login on this screen, as compressed bytes on the wire (headers included), by URL. */
async function firstVisitOfLogin(
  browser: Browser,
  screen: { width: number; height: number; deviceScaleFactor: number; isMobile: boolean },
) {
  const { width, height, ...device } = screen;
  const context = await browser.newContext({
    baseURL: ADMIN_AREA_URL,
    viewport: { width, height },
    ...device,
    hasTouch: device.isMobile,
  });
  const page = await context.newPage();
  const sizes: Array<Promise<[string, number]>> = [];
  page.on('requestfinished', (request) => {
    sizes.push(
      request
        .sizes()
        .then((size) => [request.url(), size.responseBodySize + size.responseHeadersSize]),
    );
  });
  await page.goto('/login');
  // The background is a CSS image: it is fetched once the page is laid out, and counts like the rest.
  await expect
    .poll(() =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .some((entry) => entry.name.includes('/api/background/image/')),
      ),
    )
    .toBe(true);
  await page.waitForLoadState('networkidle');
  const responses = await Promise.all(sizes);
  await context.close();
  const total = responses.reduce((sum, [, bytes]) => sum + bytes, 0);
  const of = (pattern: RegExp) => responses.filter(([url]) => pattern.test(url));
  return {
    total,
    background: of(/\/api\/background\/image\//),
    logo: of(/\/api\/logo\/image\//),
    urls: responses.map(([url]) => url),
  };
}

const KB = 1024;

test('with a 2 MB camera photo as the background, a first visit to /login stays within 150 KB on a phone and 350 KB on a desktop, the logo within 15 KB', async ({
  page,
  browser,
}) => {
  const headers = { Origin: ADMIN_AREA_URL };
  const photo = await cameraPhoto({ width: 3000, height: 2000 });
  expect(photo.length).toBeGreaterThan(1.8 * 1024 * KB);
  try {
    const background = await page.request.post('/api/background/upload', {
      headers,
      multipart: { background: { name: 'IMG_2041.JPG', mimeType: 'image/jpeg', buffer: photo } },
    });
    expect(background.status(), await background.text()).toBe(200);
    // A 900 × 900 logo of some 200 KB, as an admin might upload one.
    const logo = await page.request.post('/api/logo/upload', {
      headers,
      multipart: {
        logo: {
          name: 'logo.png',
          mimeType: 'image/png',
          buffer: await cameraPhoto({ width: 900, height: 900 }),
        },
      },
    });
    expect(logo.status(), await logo.text()).toBe(200);

    const phone = await firstVisitOfLogin(browser, {
      width: 390,
      height: 844,
      deviceScaleFactor: 2,
      isMobile: true,
    });
    expect(phone.background.map(([url]) => new URL(url).pathname)).toEqual([
      '/api/background/image/800.avif',
    ]);
    expect(phone.total, phone.urls.join('\n')).toBeLessThanOrEqual(150 * KB);
    // The sign-in page's 64 px box at 2×.
    expect(phone.logo.map(([url]) => new URL(url).pathname)).toEqual(['/api/logo/image/128.webp']);
    expect(phone.logo[0]![1]).toBeLessThanOrEqual(15 * KB);

    const desktop = await firstVisitOfLogin(browser, {
      width: 1280,
      height: 900,
      deviceScaleFactor: 1,
      isMobile: false,
    });
    expect(desktop.background.map(([url]) => new URL(url).pathname)).toEqual([
      '/api/background/image/1280.avif',
    ]);
    expect(desktop.total, desktop.urls.join('\n')).toBeLessThanOrEqual(350 * KB);
    expect(desktop.logo[0]![1]).toBeLessThanOrEqual(15 * KB);
    for (const visit of [phone, desktop])
      expect(visit.urls.some((url) => /\/api\/(logo|background)\/image\?/.test(url))).toBe(false);
  } finally {
    await restoreDefaults(page.request, 'background');
    await restoreDefaults(page.request, 'logo');
  }
});

test('while the background photo is still on its way, the sign-in card is already painted and readable', async ({
  page,
  browser,
}) => {
  const upload = await page.request.post('/api/background/upload', {
    headers: { Origin: ADMIN_AREA_URL },
    multipart: {
      background: {
        name: 'harbour.jpg',
        mimeType: 'image/jpeg',
        buffer: await cameraPhoto({ width: 1600, height: 1000 }),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const context = await browser.newContext({ baseURL: ADMIN_AREA_URL });
  try {
    const visitor = await context.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await visitor.route('**/api/background/image/**', async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await visitor.goto('/login', { waitUntil: 'domcontentloaded' });
    await expect.poll(() => asked).toBe(true);
    await expect
      .poll(() =>
        visitor.evaluate(() =>
          performance
            .getEntriesByType('paint')
            .some((entry) => entry.name === 'first-contentful-paint'),
        ),
      )
      .toBe(true);
    await expect(visitor.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(visitor.getByLabel('Username')).toBeVisible();
    release();
  } finally {
    await context.close();
    await restoreDefaults(page.request, 'background');
  }
});

test('a wordmark keeps its proportions in the top bar and on the sign-in page, and a square logo stays square', async ({
  page,
  browser,
}) => {
  const upload = async (name: string, width: number, height: number) => {
    const answer = await page.request.post('/api/logo/upload', {
      multipart: {
        logo: {
          name,
          mimeType: 'image/png',
          buffer: pngImage({ width, height, rgb: [20, 90, 200] }),
        },
      },
      headers: { Origin: ADMIN_AREA_URL },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  };
  const shownSize = async (logo: Locator) => {
    await expect
      .poll(() =>
        logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
      )
      .toBe(true);
    const box = (await logo.boundingBox())!;
    return { width: Math.round(box.width), height: Math.round(box.height) };
  };
  try {
    await upload('wordmark.png', 400, 120);
    await page.goto('/dashboard');
    expect(await shownSize(topBarLogo(page))).toEqual({ width: 133, height: 40 });
    const login = await openLoginAnonymously(browser);
    expect(await shownSize(login.page.locator('main img[data-brand-logo]'))).toEqual({
      width: 213,
      height: 64,
    });
    await login.close();

    // On a phone the name keeps its room beside the wordmark: shown whole, not cut to a letter.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    const name = page.getByRole('banner').locator('a[href="/dashboard"] > span');
    expect(
      await name.evaluate(
        (span) => span.scrollWidth <= span.clientWidth && span.scrollHeight <= span.clientHeight,
      ),
    ).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await upload('icon.png', 300, 300);
    await page.goto('/dashboard');
    expect(await shownSize(topBarLogo(page))).toEqual({ width: 40, height: 40 });

    // Uploaded on the logo page, a wordmark takes its size in the top bar at once, without a reload.
    await openHydrated(page, '/admin/logo');
    await dropFile(
      page,
      page.getByLabel('Drop a logo here or click to browse'),
      'wordmark.png',
      pngImage({ width: 400, height: 120, rgb: [20, 90, 200] }),
    );
    await expect(page.getByRole('status')).toHaveText('Logo uploaded successfully');
    await expect.poll(() => shownSize(topBarLogo(page))).toEqual({ width: 133, height: 40 });
  } finally {
    await restoreDefaults(page.request, 'logo');
  }
});
