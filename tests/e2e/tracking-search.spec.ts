/**
 * Package tracking search on the receipts screen: the 8-character rule, a number on a receipt
 * (the table is filtered), a number scanned at the warehouse but on no receipt, an unknown number, a
 * failing look-up, and clearing the box. Serial: the failure test takes the sandbox provider down.
 */
import type { Page } from '@playwright/test';
import { formatDate } from '../../src/shared/format';
import { E2E_URL } from '../support/e2e-env';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';
import { receiptList, trackingNumbersWithoutReceipt } from './receipts-data';

test.describe.configure({ mode: 'serial' });

const trackingBox = (page: Page) => page.getByRole('searchbox', { name: 'Tracking Number' });
const searchButton = (page: Page) => page.getByRole('button', { name: 'Search', exact: true });
const dataRows = (page: Page) =>
  page
    .getByRole('region', { name: 'Receipts' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
const footer = (page: Page) => page.getByText(/^Showing [\d,]+ to [\d,]+ of [\d,]+ results$/);
const TOO_SHORT = 'Tracking number must be at least 8 characters';

async function lookUp(page: Page, trackingNumber: string): Promise<void> {
  await trackingBox(page).fill(trackingNumber);
  await searchButton(page).click();
}

/** Holds the package look-up's answer until the returned function lets it go, so that the 'Searching...' state can be seen. */
async function heldPackageSearch(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/package-tracker/search?*', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
  await openHydrated(page, '/receipts');
});

test('under 8 characters the Search button is disabled and the rule is shown', async ({ page }) => {
  await expect(trackingBox(page)).toHaveAttribute('placeholder', 'Minimal 8 Characters');
  await expect(searchButton(page)).toBeDisabled();
  await expect(page.getByText(TOO_SHORT)).toBeHidden();

  await trackingBox(page).fill('1Z12345');
  await expect(searchButton(page)).toBeDisabled();
  await expect(page.getByText(TOO_SHORT)).toBeVisible();
  await trackingBox(page).press('Enter');
  await expect(page).toHaveURL(/\/receipts$/);

  await trackingBox(page).fill('1Z123456');
  await expect(searchButton(page)).toBeEnabled();
  await expect(page.getByText(TOO_SHORT)).toBeHidden();

  await trackingBox(page).fill('');
  await expect(page.getByText(TOO_SHORT)).toBeHidden();
});

test('a number on a receipt filters the table; clearing the box shows all receipts again', async ({
  page,
}) => {
  const secondPage = await receiptList(page.request, '?page=2');
  const receipt = secondPage.data.find((candidate) =>
    candidate.commodities.some((commodity) => commodity.trackingNumber),
  )!;
  const trackingNumber = receipt.commodities.find(
    (commodity) => commodity.trackingNumber,
  )!.trackingNumber!;
  const expected = await receiptList(
    page.request,
    `?trackingNumber=${encodeURIComponent(trackingNumber)}`,
  );

  await lookUp(page, trackingNumber);
  await expect(page).toHaveURL(new RegExp(`\\?trackingNumber=${trackingNumber}$`));
  await expect(dataRows(page)).toHaveCount(expected.data.length);
  await expect(dataRows(page).filter({ hasText: receipt.number })).toHaveCount(1);
  await expect(
    page.getByRole('status').filter({ hasText: /Searching|Not Received|Received at Warehouse/ }),
  ).toHaveCount(0);

  await trackingBox(page).fill('');
  await expect(page).toHaveURL(/\/receipts$/);
  await expect(dataRows(page)).toHaveCount(20);
  const all = await receiptList(page.request);
  await expect(footer(page)).toHaveText(
    `Showing 1 to 20 of ${all.pagination.totalItems.toLocaleString('en-US')} results`,
  );
});

test('a number scanned at the warehouse but on no receipt is "Received at Warehouse and in Progress"', async ({
  page,
}) => {
  const [trackingNumber] = await trackingNumbersWithoutReceipt(page.request);
  const releaseSearch = await heldPackageSearch(page);
  await lookUp(page, trackingNumber!);
  await expect(page.getByText('Searching...')).toBeVisible();
  releaseSearch();

  const result = page
    .getByRole('status')
    .filter({ has: page.getByRole('heading', { name: 'Received at Warehouse and in Progress' }) });
  await expect(result).toBeVisible();
  const answer = await page.request.get(
    `/api/package-tracker/search?trackingNumber=${trackingNumber}`,
  );
  const scans: { scanned_at: string }[] = (await answer.json()).data;
  const field = (label: string) =>
    result.getByRole('term').filter({ hasText: new RegExp(`^${label}:$`) });
  await expect(field('Tracking Number').locator('xpath=following-sibling::dd')).toHaveText(
    scans.map(() => trackingNumber!),
  );
  await expect(field('Scanned At').locator('xpath=following-sibling::dd')).toHaveText(
    scans.map((scan) => formatDate(scan.scanned_at)),
  );
  await expect(field('Id')).toHaveCount(0);
  await expect(field('Arrival Id')).toHaveCount(0);
  await expect(page).toHaveURL(/\/receipts$/);

  await trackingBox(page).fill('');
  await expect(result).toBeHidden();
});

test('an unknown number is "Not Received"', async ({ page }) => {
  const releaseSearch = await heldPackageSearch(page);
  await lookUp(page, `ZZ${Date.now()}`);
  await expect(page.getByText('Searching...')).toBeVisible();
  releaseSearch();
  await expect(page.getByRole('heading', { name: 'Not Received' })).toBeVisible();
  await expect(
    page.getByText('This tracking number was not found in our warehouse system'),
  ).toBeVisible();
  await expect(dataRows(page)).toHaveCount(20);

  await trackingBox(page).fill('');
  await expect(page.getByRole('heading', { name: 'Not Received' })).toBeHidden();
});

test('a look-up the provider cannot answer is "Search failed. Please try again."', async ({
  page,
}) => {
  const control = (action: string) =>
    page.request.post(`/sandbox/control/${action}`, { headers: { Origin: E2E_URL } });
  expect((await control('outage')).ok()).toBe(true);
  try {
    // Not a 4xx, so the client retries three times (1 + 2 + 4 s) before it gives up.
    await lookUp(page, `ZZ${Date.now()}`);
    await expect(page.getByText('Search failed. Please try again.')).toBeVisible();
  } finally {
    expect((await control('recover')).ok()).toBe(true);
  }
});
