/**
 * Share links on a phone: a customer shares a receipt from its details modal, the link opens signed out
 * in a fresh browser (English, then Dutch) with the status and no names, and once revoked in Profile
 * Settings it says it no longer works. The first visit's transfer is measured against /login's.
 */
import type { Browser, Page } from '@playwright/test';
import { statusLabel } from '../../src/shared/format';
import type { Receipt } from '../../src/shared/receipts';
import { adminRequest, expect, openHydrated, signIn, test, uniqueName } from './fixtures';

const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
test.use(PHONE);

/** A first visit in a fresh, signed-out browser: the page, and the bytes of every response it took. */
async function firstVisit(
  browser: Browser,
  url: string,
  locale: string,
): Promise<{ page: Page; bytes: number; close: () => Promise<void> }> {
  const context = await browser.newContext({ ...PHONE, locale });
  const page = await context.newPage();
  const sizes: Array<Promise<number>> = [];
  page.on('requestfinished', (request) =>
    sizes.push(request.sizes().then((size) => size.responseBodySize + size.responseHeadersSize)),
  );
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  return { page, bytes, close: () => context.close() };
}

test('a customer shares a receipt from the details modal; the link shows its status signed out, in English and Dutch, until revoked', async ({
  page,
  browser,
  adminApi,
  playwright,
  baseURL,
}) => {
  // Arranged as the admin: a customer of the consignee of a recent receipt with packages.
  await adminApi.importConsignees();
  const admin = await adminRequest(playwright, baseURL!);
  const listed = await admin.get('/api/receipts?limit=50&sortBy=receivedDate&sortOrder=desc');
  expect(listed.status()).toBe(200);
  const receipt = ((await listed.json()).data as Receipt[]).find((candidate) =>
    candidate.commodities.some((commodity) => commodity.trackingNumber),
  )!;
  expect(receipt).toBeDefined();
  const consignees: Array<{ id: number; name: string }> = (
    await (await admin.get('/api/consignees')).json()
  ).data;
  const consignee = consignees.find((candidate) => candidate.name === receipt.consigneeName)!;
  await admin.dispose();
  const username = uniqueName('sharer');
  const password = 'sharer-pass-1';
  const customer = await adminApi.createUser({ username, password, role: 'viewer' });
  await adminApi.addUserToConsignee(consignee.id, customer.id);

  await signIn(page, username, password);
  await openHydrated(page, `/receipts?search=${encodeURIComponent(receipt.number)}`);
  await page.getByRole('link', { name: 'View' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  const field = dialog.getByRole('textbox', { name: 'Share link' });
  await expect(field).toHaveValue(/\/t\/[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(dialog.getByText('it is shown only once')).toBeVisible();
  const url = await field.inputValue();

  const english = await firstVisit(browser, url, 'en-US');
  await expect(
    english.page.getByRole('heading', { name: 'Shipment status', level: 1 }),
  ).toBeVisible();
  await expect(english.page.getByRole('definition').first()).toHaveText(
    statusLabel(receipt.status),
  );
  await expect(english.page.getByRole('heading', { name: 'Status history' })).toBeVisible();
  await expect(english.page.getByText(/Updated .*(ago|just now)/)).toBeVisible();
  const body = (await english.page.locator('body').textContent()) ?? '';
  for (const hidden of [
    receipt.shipperName,
    receipt.consigneeName,
    ...receipt.commodities.flatMap((commodity) => commodity.trackingNumber ?? []),
  ])
    expect(body).not.toContain(hidden);
  expect(await english.page.locator('astro-island').count()).toBe(0);
  await english.close();

  const login = await firstVisit(browser, new URL('/login', url).href, 'en-US');
  await login.close();
  test.info().annotations.push({
    type: 'transfer',
    description: `first visit on a phone: /t/<token> ${english.bytes} B, /login ${login.bytes} B`,
  });
  console.log(`first visit on a phone: /t/<token> ${english.bytes} B, /login ${login.bytes} B`);

  const dutch = await firstVisit(browser, url, 'nl-NL');
  await expect(
    dutch.page.getByRole('heading', { name: 'Status van de zending', level: 1 }),
  ).toBeVisible();
  await expect(dutch.page.getByRole('heading', { name: 'Statusgeschiedenis' })).toBeVisible();
  await dutch.close();

  await openHydrated(page, '/profile');
  const shared = page.getByRole('region', { name: 'Shared links' });
  await shared
    .getByRole('button', { name: `Revoke the share link to receipt ${receipt.number}` })
    .click();
  await expect(
    page.getByRole('region', { name: 'Shared links' }).getByText('You have no active share links.'),
  ).toBeVisible();

  for (const [locale, gone] of [
    ['en-US', 'This link no longer works'],
    ['nl-NL', 'Deze link werkt niet meer'],
  ] as const) {
    const after = await firstVisit(browser, url, locale);
    await expect(after.page.getByRole('heading', { name: gone, level: 1 })).toBeVisible();
    await after.close();
  }
});
