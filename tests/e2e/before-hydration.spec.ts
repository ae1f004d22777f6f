/**
 * No tap lost before an island hydrates: with the islands' scripts held back (a slow link), each
 * control of /receipts works as a link or a GET form, or is kept and replayed once the island runs; the
 * admin screens' controls are visibly disabled until their island can answer them.
 */
import type { Locator, Page } from '@playwright/test';
import { formatCount } from '~/shared/format';
import { expect, holdScripts, signInAsAdmin, test } from './fixtures';
import { receiptList } from './receipts-data';

const notHydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(1);

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('Next and Previous before hydration load the next and the previous page, keeping the sort', async ({
  page,
}) => {
  const { totalPages } = (await receiptList(page.request, '?sortBy=shipperName')).pagination;
  await holdScripts(page);
  await page.goto('/receipts?sortBy=shipperName', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/receipts\?sortBy=shipperName&page=2$/);
  await expect(page.getByText(`Page 2 of ${formatCount(totalPages)}`)).toBeVisible();
  const secondPage = (await receiptList(page.request, '?sortBy=shipperName&page=2')).data.map(
    (receipt) => receipt.number,
  );
  await expect(page.getByRole('row').nth(1)).toContainText(secondPage[0]!);

  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/\/receipts\?sortBy=shipperName&page=1$/);
  await expect(page.getByText(`Page 1 of ${formatCount(totalPages)}`)).toBeVisible();
  await notHydrated(page);
});

test('Sort By and Order before hydration apply at once, through their GET form', async ({
  page,
}) => {
  await holdScripts(page);
  await page.goto('/receipts?search=inc', { waitUntil: 'commit' });
  await page.getByLabel('Sort By').selectOption({ label: 'Shipper' });
  await expect(page).toHaveURL(/\/receipts\?search=inc&sortBy=shipperName&sortOrder=desc$/);
  await expect(page.getByLabel('Sort By')).toHaveValue('shipperName');
  await page.getByLabel('Order').selectOption({ label: 'Ascending' });
  await expect(page).toHaveURL(/\/receipts\?search=inc&sortBy=shipperName&sortOrder=asc$/);
  const expected = (
    await receiptList(page.request, '?search=inc&sortBy=shipperName&sortOrder=asc')
  ).data.map((receipt) => receipt.number);
  await expect(page.getByRole('row').nth(1)).toContainText(expected[0]!);
  await notHydrated(page);
});

test('a search sent with Enter before hydration filters the list, and its chip clears it', async ({
  page,
}) => {
  await holdScripts(page);
  await page.goto('/receipts?sortOrder=asc', { waitUntil: 'commit' });
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('inc');
  await page.getByRole('searchbox', { name: 'Search', exact: true }).press('Enter');
  await expect(page).toHaveURL(/\/receipts\?sortOrder=asc&search=inc$/);
  await expect(page.getByText('Search: inc', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page).toHaveURL(/\/receipts\?sortOrder=asc$/);
  await expect(page.getByText('Search: inc', { exact: true })).toHaveCount(0);
  await notHydrated(page);
});

test('a search typed before hydration is answered by the server after the typing pause, and the island takes over later', async ({
  page,
}) => {
  const expected = (await receiptList(page.request, '?search=inc')).data.map(
    (receipt) => receipt.number,
  );
  const releaseScripts = await holdScripts(page);
  await page.goto('/receipts', { waitUntil: 'commit' });
  const searchBox = page.getByRole('searchbox', { name: 'Search', exact: true });
  await searchBox.pressSequentially('inc');
  await expect(page).toHaveURL(/\/receipts\?search=inc$/);
  await expect(page.getByText('Search: inc', { exact: true })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toContainText(expected[0]!);
  // Only the island was replaced: one island, and nothing of the page's script shows as text.
  await expect(page.locator('astro-island')).toHaveCount(1);
  await expect(page.getByText(/pushState|innerHTML/)).toHaveCount(0);
  // The box keeps the focus and the caret at the end: typing goes on where it was.
  await expect(searchBox).toBeFocused();
  await notHydrated(page);
  await page.keyboard.type('z');
  await expect(page).toHaveURL(/\/receipts\?search=incz$/);
  await expect(searchBox).toHaveValue('incz');
  // Back shows the list of the address it goes back to.
  await page.goBack({ waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/receipts\?search=inc$/);
  await expect(page.getByRole('row').nth(1)).toContainText(expected[0]!);
  await expect(searchBox).toHaveValue('inc');

  releaseScripts();
  await page.getByRole('region', { name: 'Receipts', exact: true }).hover();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await searchBox.fill('inc');
  await expect(page).toHaveURL(/\/receipts\?search=inc$/);
  await expect(page.getByRole('row').nth(1)).toContainText(expected[0]!);
});

test('a search typed while the island hydrates is applied by the island at once', async ({
  page,
}) => {
  const releaseScripts = await holdScripts(page);
  // The server's answer to the typed search never comes: the island, once ready, answers instead.
  await page.context().route(
    (url) => url.pathname === '/receipts' && url.searchParams.has('search'),
    () => {},
  );
  await page.goto('/receipts', { waitUntil: 'commit' });
  const searchBox = page.getByRole('searchbox', { name: 'Search', exact: true });
  const listAnswer = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/receipts' &&
      new URL(response.url()).searchParams.get('search') === 'inc',
  );
  await searchBox.fill('inc');
  await notHydrated(page);
  releaseScripts();
  await page.getByRole('table').hover();
  await listAnswer;
  await expect(page).toHaveURL(/\/receipts\?search=inc$/);
  await expect(page.getByText('Search: inc', { exact: true })).toBeVisible();
  await expect(searchBox).toHaveValue('inc');
});

test('a tracking-number search tapped before hydration is run once the island is ready', async ({
  page,
}) => {
  const receipt = (await receiptList(page.request, '?page=2')).data.find((candidate) =>
    candidate.commodities.some((commodity) => commodity.trackingNumber),
  )!;
  const trackingNumber = receipt.commodities.find(
    (commodity) => commodity.trackingNumber,
  )!.trackingNumber!;
  const releaseScripts = await holdScripts(page);
  await page.goto('/receipts', { waitUntil: 'commit' });
  await page.getByRole('searchbox', { name: 'Tracking Number' }).fill(trackingNumber);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await notHydrated(page);
  releaseScripts();
  await expect(page).toHaveURL(new RegExp(`\\?trackingNumber=${trackingNumber}$`));
  await expect(page.getByRole('row').filter({ hasText: receipt.number })).toBeVisible();
});

const ADMIN_SCREENS: Array<{ path: string; control: (page: Page) => Locator }> = [
  { path: '/admin/users', control: (page) => page.getByRole('button', { name: 'Add User' }) },
  {
    path: '/admin/user-consignees',
    control: (page) => page.getByRole('searchbox', { name: 'Search consignees' }),
  },
  {
    path: '/admin/tokens',
    control: (page) => page.getByRole('button', { name: /^(OAuth2 Flow|Manual Entry)$/ }).first(),
  },
  {
    path: '/admin/logo',
    control: (page) => page.getByLabel('Drop a logo here or click to browse'),
  },
  {
    path: '/admin/background',
    control: (page) => page.getByRole('button', { name: 'Click to upload background image' }),
  },
];

for (const { path, control } of ADMIN_SCREENS) {
  test(`${path}: the island's controls are disabled until it can answer them`, async ({ page }) => {
    const releaseScripts = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    await expect(control(page)).toBeDisabled();
    const island = page.locator('astro-island');
    const controls = [
      ...(await island.getByRole('button').all()),
      ...(await island.getByRole('textbox').all()),
      ...(await island.getByRole('searchbox').all()),
      ...(await island.getByRole('combobox').all()),
    ];
    expect(controls.length).toBeGreaterThan(0);
    for (const each of controls) await expect(each).toBeDisabled();
    await notHydrated(page);
    releaseScripts();
    await expect(control(page)).toBeEnabled();
  });
}
