/**
 * Offline reading (README.md "Offline reading and the home screen"): once signed in, the service worker keeps the customer's last screens and
 * answers; offline they open again under a banner, while what was never fetched says it needs a
 * connection. What is kept belongs to one user: sign-out and another user's sign-in remove it. And the
 * web app manifest that lets a phone add the portal to its home screen.
 */
import type { Page } from '@playwright/test';
import type { Receipt } from '../../src/shared/receipts';
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { adminRequest, expect, openHydrated, signIn, test, uniqueName } from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL });

const PASSWORD = 'offline-pass-1';
const ENGLISH_BANNER =
  /^You are offline — showing data from \d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2}\s[AP]M$/;
const NEEDS_CONNECTION =
  'This needs a connection to the server. Please try again once you are back online.';

/** A customer (viewer) assigned the consignee at `rank` in the list of consignees by receipts. */
async function newCustomer(playwright: Parameters<typeof adminRequest>[0], rank: number) {
  const admin = await adminRequest(playwright, ADMIN_AREA_URL);
  expect((await admin.post('/api/consignees/import')).status()).toBe(200);
  const consignees = (await (await admin.get('/api/consignees')).json()).data as Array<{
    id: number;
    name: string;
  }>;
  const consignee = consignees[rank]!;
  const username = uniqueName('offline');
  const created = await admin.post('/api/auth/users', {
    data: { username, password: PASSWORD, role: 'viewer' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const user = (await created.json()).data.user as { id: number };
  expect(
    (
      await admin.post(`/api/consignees/${consignee.id}/add-user`, { data: { userId: user.id } })
    ).status(),
  ).toBe(200);
  await admin.dispose();
  return { id: user.id, username };
}

/** Waits until the service worker controls the page, so that what follows passes through it. */
async function workerInControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}

async function firstReceipt(page: Page): Promise<Receipt> {
  const response = await page.request.get(
    '/api/receipts?sortBy=receivedDate&sortOrder=desc&page=1',
  );
  expect(response.status()).toBe(200);
  return (await response.json()).data[0] as Receipt;
}

const banner = (page: Page) => page.getByRole('status').filter({ hasText: /offline/ });
const totalReceipts = (page: Page) =>
  page.getByRole('region', { name: 'Total Receipts', exact: true }).getByRole('paragraph').first();

test('offline, the last dashboard, receipts and receipt page open with the banner; a new search needs a connection; back online the banner goes', async ({
  page,
  context,
  playwright,
}) => {
  const customer = await newCustomer(playwright, 0);
  await signIn(page, customer.username, PASSWORD);
  await workerInControl(page);
  const receipt = await firstReceipt(page);

  await page.goto('/dashboard');
  const total = await totalReceipts(page).textContent();
  await openHydrated(page, '/receipts');
  await expect(page.getByRole('cell', { name: receipt.number, exact: true })).toBeVisible();
  await page.goto(`/receipts/${receipt.id}`);
  await expect(
    page.getByRole('heading', { name: `Receipt ${receipt.number}`, level: 1 }),
  ).toBeVisible();
  await expect(banner(page)).toBeHidden();

  await context.setOffline(true);
  await openHydrated(page, '/receipts');
  await expect(banner(page)).toHaveText(ENGLISH_BANNER);
  await expect(page.getByRole('cell', { name: receipt.number, exact: true })).toBeVisible();

  await page
    .getByRole('searchbox', { name: 'Search', exact: true })
    .fill(uniqueName('never-searched'));
  await page.getByRole('searchbox', { name: 'Search', exact: true }).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: NEEDS_CONNECTION })).toBeVisible();

  await page.goto(`/receipts/${receipt.id}`);
  await expect(
    page.getByRole('heading', { name: `Receipt ${receipt.number}`, level: 1 }),
  ).toBeVisible();
  await expect(banner(page)).toHaveText(ENGLISH_BANNER);

  await page.goto('/dashboard');
  await expect(banner(page)).toHaveText(ENGLISH_BANNER);
  await expect(totalReceipts(page)).toHaveText(total!);

  // A screen never opened (and sign-out) needs the server.
  await page.goto('/locations');
  await expect(page.getByRole('heading', { name: 'You are offline', level: 1 })).toBeVisible();
  await expect(page.getByText(NEEDS_CONNECTION)).toBeVisible();

  await page.goto('/dashboard');
  await expect(banner(page)).toBeVisible();
  await context.setOffline(false);
  await expect(banner(page)).toBeHidden();
  await expect(totalReceipts(page)).toHaveText(total!);
});

test.describe('in Dutch', () => {
  test.use({ locale: 'nl-NL' });

  test('the offline banner is in Dutch', async ({ page, context, playwright }) => {
    const customer = await newCustomer(playwright, 0);
    const signedIn = await page.request.post('/api/auth/login', {
      data: { username: customer.username, password: PASSWORD },
      headers: { Origin: ADMIN_AREA_URL },
    });
    expect(signedIn.status()).toBe(200);
    await page.goto('/dashboard');
    await workerInControl(page);
    await page.goto('/dashboard');

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(banner(page)).toHaveText(
      /^U bent offline — u ziet de gegevens van \d{2}-\d{2}-\d{4}, \d{2}:\d{2}$/,
    );
  });
});

test("after sign-out nothing of the user is shown offline, and another user never sees the first one's kept data", async ({
  page,
  context,
  playwright,
}) => {
  const first = await newCustomer(playwright, 0);
  const second = await newCustomer(playwright, 1);
  await signIn(page, first.username, PASSWORD);
  await workerInControl(page);
  const receipt = await firstReceipt(page);
  await page.goto('/dashboard');
  await openHydrated(page, '/receipts');
  await expect(page.getByRole('cell', { name: receipt.number, exact: true })).toBeVisible();
  const keptCaches = () =>
    page.evaluate(() =>
      caches.keys().then((names) => names.filter((name) => name.startsWith('portal-user-'))),
    );
  expect(await keptCaches()).toEqual([`portal-user-${first.id}`]);

  // Another user signs in in the same browser: the first user's data is gone before anything is shown.
  const switched = await page.request.post('/api/auth/login', {
    data: { username: second.username, password: PASSWORD },
    headers: { Origin: ADMIN_AREA_URL },
  });
  expect(switched.status()).toBe(200);
  await page.goto('/dashboard');
  expect(await keptCaches()).not.toContain(`portal-user-${first.id}`);
  await context.setOffline(true);
  await page.goto('/receipts');
  await expect(page.getByRole('heading', { name: 'You are offline', level: 1 })).toBeVisible();
  await expect(page.getByText(receipt.number)).toHaveCount(0);
  await context.setOffline(false);

  // Sign-out: offline afterwards, no kept screen is shown.
  await page.goto('/dashboard');
  await page.goto('/receipts');
  await page.getByRole('banner').getByText(second.username, { exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await keptCaches()).toEqual([]);
  await context.setOffline(true);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'You are offline', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toHaveCount(0);
  await expect(page.getByText(second.username)).toHaveCount(0);
});

test('every page links a web app manifest a phone can install from', async ({ page }) => {
  await page.goto('/login');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await page.request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  const manifest = JSON.parse(await response.text());
  expect(manifest).toMatchObject({
    name: 'Freight Portal',
    short_name: 'Freight Portal',
    start_url: '/dashboard',
    display: 'standalone',
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.icons.length).toBeGreaterThan(0);
  for (const icon of manifest.icons) expect((await page.request.get(icon.src)).status()).toBe(200);
});
