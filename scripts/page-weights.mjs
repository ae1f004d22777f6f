// Page weights against their budgets (in pageWeights below; compressed bytes on the wire, first visit, as a customer, in
// English and in Dutch), and what the offline service worker adds. Used by scripts/bench.mjs;
// `node scripts/page-weights.mjs` runs it alone against a small portal (BENCH_RECEIPTS, default 2,000).
import { chromium } from '@playwright/test';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/support/chromium.ts';

const KB = 1024;
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

/** Prints the weights for `baseUrl`, signed in as `customerCookie` (`name=value`) where a page needs it. */
export async function pageWeights(baseUrl, customerCookie) {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    for (const [path, cookie, budget] of [
      ['/login', null, 90],
      ['/dashboard', customerCookie, 30],
      // design.md: 120 KB once the list's island has hydrated, React and React DOM 60 KB of it.
      ['/receipts', customerCookie, 120],
      // Server-rendered like the dashboard: no React.
      ['/prealerts', customerCookie, 30],
    ]) {
      for (const locale of ['en-US', 'nl-NL']) {
        const weight = await pageWeight(browser, baseUrl, path, cookie, locale);
        console.log(
          `  ${path.padEnd(11)} ${locale.slice(0, 2)} ${kb(weight.total)} of ${budget} KB in ${weight.requests} requests` +
            ` (HTML ${kb(weight.html)}, CSS ${kb(weight.css)}, JS ${kb(weight.js)}, other ${kb(weight.other)}, service worker ${kb(weight.worker)})`,
        );
      }
    }
    const map = await mapWeight(browser, baseUrl, customerCookie);
    console.log(
      `  opening the map  ${kb(map.total)} of 50 KB more in ${map.requests} requests (CSS ${kb(map.css)}, JS ${kb(map.js)}, other ${kb(map.other)})`,
    );
    const photos = await photosWeight(browser, baseUrl, customerCookie);
    console.log(
      `  opening a receipt with three photos on a phone  ${kb(photos.total)} of 60 KB more in ${photos.requests} requests` +
        ` (thumbnails ${photos.thumbnails.map(kb).join(', ')}; JS ${kb(photos.js)})`,
    );
  } finally {
    await browser.close();
  }
}

async function newPage(browser, baseUrl, cookie, locale = 'en-US') {
  const context = await browser.newContext({ locale });
  if (cookie) {
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: baseUrl }]);
  }
  return { context, page: await context.newPage() };
}

/**
 * Counts every response the context receives: the page's own, and those of the service worker a
 * signed-in page registers (its script, and what it fetches on install), which count in the budget.
 */
function recordWeight(context) {
  const weight = { total: 0, html: 0, css: 0, js: 0, other: 0, worker: 0, requests: 0 };
  const pending = [];
  const listener = (request) => {
    pending.push(
      (async () => {
        // A request the worker answered is counted once, as the worker's own fetch from the network.
        if ((await request.response())?.fromServiceWorker()) return;
        const sizes = await request.sizes();
        // Chromium reports no body for the worker's own script: its compressed length is asked for here.
        const body =
          sizes.responseBodySize ||
          (request.resourceType() === 'script' ? await compressedLength(request.url()) : 0);
        const bytes = body + sizes.responseHeadersSize;
        const kind = kindOf(request);
        weight[kind] += bytes;
        weight.total += bytes;
        weight.requests += 1;
      })(),
    );
  };
  context.on('requestfinished', listener);
  return async () => {
    context.off('requestfinished', listener);
    await Promise.all(pending);
    return weight;
  };
}

/** The worker's script and the page it keeps at install are its own; what it fetches for the page is the page's. */
function kindOf(request) {
  const { pathname } = new URL(request.url());
  if (pathname === '/sw.js' || pathname === '/offline') return 'worker';
  if (request.resourceType() === 'document') return 'html';
  if (pathname.endsWith('.css')) return 'css';
  if (pathname.endsWith('.js')) return 'js';
  return 'other';
}

/** The length of `url`'s body as sent brotli-compressed (node:http leaves it compressed). */
function compressedLength(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'br' } }, (response) => {
        let length = 0;
        response.on('data', (chunk) => (length += chunk.length));
        response.on('end', () => resolve(length));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The browser's language (Accept-Language) picks the page's: the demo customer has no saved preference. */
async function pageWeight(browser, baseUrl, path, cookie, locale) {
  const { context, page } = await newPage(browser, baseUrl, cookie, locale);
  const done = recordWeight(context);
  await page.goto(baseUrl + path, { waitUntil: 'networkidle' });
  // The worker installs after the page has loaded: its fetches count once it is active.
  if (cookie) await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForLoadState('networkidle');
  // An island that hydrates at the first touch (the receipts list) counts too: a customer uses the page.
  const untouched = page.locator('astro-island[ssr][client="interaction"] section');
  if (await untouched.count()) {
    await untouched.first().hover({ position: { x: 4, y: 4 } });
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    await page.waitForLoadState('networkidle');
  }
  const weight = await done();
  await context.close();
  return weight;
}

/** What opening the tracking map adds to a loaded /receipts page: Leaflet JS + CSS, icons, the modal. */
async function mapWeight(browser, baseUrl, cookie) {
  const { context, page } = await newPage(browser, baseUrl, cookie);
  await page.goto(`${baseUrl}/receipts`, { waitUntil: 'networkidle' });
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The list in use (hydrated), as the customer who presses a status button has it.
  await page.getByRole('table').hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
  await page.waitForLoadState('networkidle');
  const done = recordWeight(context);
  await page.getByRole('row').nth(1).getByRole('button').first().click();
  await page.getByRole('dialog', { name: 'Tracking Details' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const weight = await done();
  await context.close();
  return weight;
}

/** The newest receipt of the customer's with exactly three packages, so three photos (the sandbox photographs each package). */
async function receiptWithThreePhotos(baseUrl, cookie) {
  for (let page = 1; ; page += 1) {
    const response = await fetch(`${baseUrl}/api/receipts?limit=100&page=${page}`, {
      headers: { Cookie: cookie },
    });
    if (!response.ok) throw new Error(`receipts: ${response.status}`);
    const list = await response.json();
    const found = list.data.find((receipt) => receipt.commodities.length === 3);
    if (found) return found;
    if (!list.pagination.hasNextPage)
      throw new Error('the customer has no receipt with three packages');
  }
}

/**
 * What opening such a receipt's details adds to a loaded /receipts page on a phone (390 × 844 at 2×):
 * its details and its list of photos and documents, and the three thumbnails, which load as the
 * customer scrolls down to them. The first opening, when the portal fetches the photos from the provider.
 */
async function photosWeight(browser, baseUrl, cookie) {
  const receipt = await receiptWithThreePhotos(baseUrl, cookie);
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: baseUrl }]);
  const page = await context.newPage();
  await page.goto(`${baseUrl}/receipts?search=${encodeURIComponent(receipt.number)}`, {
    waitUntil: 'networkidle',
  });
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.getByRole('table').hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
  await page.waitForLoadState('networkidle');
  const done = recordWeight(context);
  const thumbnails = [];
  context.on('requestfinished', (request) => {
    if (request.url().endsWith('?size=thumb'))
      thumbnails.push(
        request.sizes().then((size) => size.responseBodySize + size.responseHeadersSize),
      );
  });
  await page.getByRole('link', { name: 'View', exact: true }).first().click();
  const photos = page
    .getByRole('dialog', { name: 'Receipt Details' })
    .getByRole('list', { name: 'Package photos' });
  await photos.waitFor();
  await photos.scrollIntoViewIfNeeded();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('dialog[open] ul img')].every(
      (image) => image.complete && image.naturalWidth > 0,
    ),
  );
  await page.waitForLoadState('networkidle');
  const weight = await done();
  await context.close();
  return { ...weight, thumbnails: await Promise.all(thumbnails) };
}

/**
 * A first visit to /login once an admin has uploaded a 2 MB, 3000 × 2000 camera photo as the background
 * and a 900 × 900 logo, on a phone (390 × 844 at 2×) and a desktop (1280 × 900): every byte on the wire,
 * and the background's and the logo's share. Puts the portal back without them afterwards.
 */
export async function brandedLoginWeights(baseUrl, adminCookie) {
  const { cameraPhoto } = await import('../tests/support/images.ts');
  const upload = async (kind, name, type, bytes) => {
    const form = new FormData();
    form.append(kind, new Blob([bytes], { type }), name);
    const response = await fetch(`${baseUrl}/api/${kind}/upload`, {
      method: 'POST',
      headers: { Cookie: adminCookie, Origin: baseUrl },
      body: form,
    });
    if (!response.ok)
      throw new Error(`${kind} upload: ${response.status} ${await response.text()}`);
  };
  const photo = await cameraPhoto({ width: 3000, height: 2000 });
  await upload('background', 'IMG_2041.JPG', 'image/jpeg', photo);
  await upload('logo', 'logo.png', 'image/png', await cameraPhoto({ width: 900, height: 900 }));
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    for (const [label, screen, budget] of [
      [
        'phone 390×844 at 2×',
        {
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
        },
        150,
      ],
      ['desktop 1280×900', { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 }, 350],
    ]) {
      const context = await browser.newContext(screen);
      const responses = [];
      context.on('requestfinished', (request) => {
        responses.push(
          request.sizes().then((size) => ({
            url: request.url(),
            bytes: size.responseBodySize + size.responseHeadersSize,
          })),
        );
      });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
      const all = await Promise.all(responses);
      await context.close();
      const sum = (pattern) =>
        all.filter(({ url }) => pattern.test(url)).reduce((total, { bytes }) => total + bytes, 0);
      console.log(
        `  /login with a ${kb(photo.length)} photo as the background, ${label}: ${kb(sum(/./))} of ${budget} KB` +
          ` (background ${kb(sum(/\/api\/background\/image/))}, logo ${kb(sum(/\/api\/logo\/image/))} of 15 KB)`,
      );
    }
  } finally {
    await browser.close();
    for (const kind of ['background', 'logo'])
      await fetch(`${baseUrl}/api/${kind}/current`, {
        method: 'DELETE',
        headers: { Cookie: adminCookie, Origin: baseUrl },
      });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { withSmallPortal } = await import('./small-portal.mjs');
  await withSmallPortal(async (url, session, receipts, admin) => {
    console.log(
      `Page weight, first visit as a customer (compressed bytes on the wire), ${receipts}-receipt sandbox:`,
    );
    await pageWeights(url, session);
    console.log('Uploaded images, first visit to /login (compressed bytes on the wire):');
    await brandedLoginWeights(url, admin);
  });
}
