/**
 * The receipts screen: the list rendered with the page, search with its chip, sort, paging, and the page
 * URL that follows the filters (Back, reload, a shared link). Expected rows come from /api/receipts.
 */
import type { Page } from '@playwright/test';
import { formatCount, formatVolume, formatWeight } from '../../src/shared/format';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';
import { receiptList } from './receipts-data';

const COLUMNS = [
  'Received Date',
  'Receipt #',
  'Shipper',
  'Consignee',
  'Pieces',
  'Weight (lbs)',
  'Volume (ft³)',
  'Destination',
  'Status',
  'Actions',
];

const receiptsRegion = (page: Page) => page.getByRole('region', { name: 'Receipts' });
const dataRows = (page: Page) =>
  receiptsRegion(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search', exact: true });
const footer = (page: Page) => page.getByText(/^Showing [\d,]+ to [\d,]+ of [\d,]+ results$/);
const chip = (page: Page, text: string) => page.getByText(`Search: ${text}`, { exact: true });

/** The Receipt # column, top to bottom, once the list has settled. */
async function shownNumbers(page: Page): Promise<string[]> {
  await expect(receiptsRegion(page)).toHaveAttribute('aria-busy', 'false');
  return dataRows(page).evaluateAll((rows) =>
    rows.map((row) => (row as HTMLTableRowElement).cells[1]!.textContent!.trim()),
  );
}

/** Waits for the table to show `expected` (the list may still be on its previous answer). */
async function expectNumbers(page: Page, expected: string[], message?: string): Promise<void> {
  await expect.poll(() => shownNumbers(page), { message }).toEqual(expected);
}

/** The next answer of GET /api/receipts whose query has exactly `params` (defaults left out, as the client sends it). */
function nextListAnswer(page: Page, params: Record<string, string>) {
  const wanted = new URLSearchParams(params).toString();
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === '/api/receipts' && url.searchParams.toString() === wanted;
  });
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the first page arrives rendered: ten columns, the rows and the footer of the URL query', async ({
    page,
  }) => {
    await page.goto('/receipts?page=2');
    await expect(page.getByRole('heading', { name: 'Receipts', level: 1 })).toBeVisible();
    await expect(page.getByText('Manage and view all freight receipts')).toBeVisible();
    await expect(receiptsRegion(page).getByRole('columnheader')).toHaveText(COLUMNS);
    const expected = await receiptList(page.request, '?page=2');
    await expect(dataRows(page)).toHaveCount(20);
    await expect(footer(page)).toHaveText(
      `Showing 21 to 40 of ${formatCount(expected.pagination.totalItems)} results`,
    );
    await expect(
      page.getByText(`Page 2 of ${formatCount(expected.pagination.totalPages)}`),
    ).toBeVisible();
  });

  test('weights and volumes carry their units in every row', async ({ page }) => {
    await page.goto('/receipts');
    const expected = await receiptList(page.request);
    const shown = await dataRows(page).evaluateAll((rows) =>
      rows.map((row) =>
        [...(row as HTMLTableRowElement).cells].slice(5, 7).map((cell) => cell.textContent!.trim()),
      ),
    );
    expect(shown).toEqual(
      expected.data.map((receipt) => [
        formatWeight(receipt.totalWeightValue),
        formatVolume(receipt.totalVolumeValue),
      ]),
    );
  });
});

test('search applies as one types, shows a chip, returns to page 1, and the chip cross clears it', async ({
  page,
}) => {
  await openHydrated(page, '/receipts?page=2');
  await expect(searchBox(page)).toHaveAttribute(
    'placeholder',
    'Search receipts, shipper, consignee...',
  );
  await expect(chip(page, 'amazon')).toBeHidden();

  const answer = nextListAnswer(page, { search: 'amazon' });
  await searchBox(page).fill('amazon');
  const expected = await (await answer).json();
  await expect(page).toHaveURL(/\/receipts\?search=amazon$/);
  await expect(chip(page, 'amazon')).toBeVisible();
  await expect(footer(page)).toHaveText(
    `Showing 1 to 20 of ${formatCount(expected.pagination.totalItems)} results`,
  );
  await expectNumbers(
    page,
    expected.data.map((receipt: { number: string }) => receipt.number),
  );
  for (const text of await dataRows(page).allTextContents()) expect(text).toMatch(/amazon/i);

  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(chip(page, 'amazon')).toBeHidden();
  await expect(searchBox(page)).toHaveValue('');
  await expect(page).toHaveURL(/\/receipts$/);
  const all = await receiptList(page.request);
  await expect(footer(page)).toHaveText(
    `Showing 1 to 20 of ${formatCount(all.pagination.totalItems)} results`,
  );

  await searchBox(page).fill('zz-no-such-receipt');
  await searchBox(page).press('Enter');
  await expect(page.getByText('No receipts found')).toBeVisible();
  await expect(footer(page)).toBeHidden();
});

test('every sort key and both orders change the order to what the API answers for them', async ({
  page,
}) => {
  await openHydrated(page, '/receipts');
  const sortBy = page.getByLabel('Sort By');
  const order = page.getByLabel('Order');
  await expect(sortBy.getByRole('option')).toHaveText([
    'Received Date',
    'Receipt #',
    'Shipper',
    'Consignee',
    'Status',
  ]);
  await expect(order.getByRole('option')).toHaveText(['Descending', 'Ascending']);
  await expect(sortBy).toHaveValue('receivedDate');
  await expect(order).toHaveValue('desc');
  let previous = await shownNumbers(page);

  /** Receipt numbers run with the received date, so each step is compared with a differently sorted one. */
  const steps = [
    { select: sortBy, label: 'Shipper', queryString: '?sortBy=shipperName' },
    { select: sortBy, label: 'Receipt #', queryString: '?sortBy=number' },
    { select: sortBy, label: 'Consignee', queryString: '?sortBy=consigneeName' },
    { select: order, label: 'Ascending', queryString: '?sortBy=consigneeName&sortOrder=asc' },
    { select: sortBy, label: 'Status', queryString: '?sortBy=status&sortOrder=asc' },
    { select: order, label: 'Descending', queryString: '?sortBy=status' },
    { select: sortBy, label: 'Received Date', queryString: '' },
    { select: order, label: 'Ascending', queryString: '?sortOrder=asc' },
  ];
  for (const { select, label, queryString } of steps) {
    await select.selectOption({ label });
    await expect(page).toHaveURL(new RegExp(`/receipts${queryString.replace('?', '\\?')}$`));
    const expected = await receiptList(page.request, queryString);
    await expectNumbers(
      page,
      expected.data.map((receipt) => receipt.number),
      queryString,
    );
    const shown = await shownNumbers(page);
    expect(shown, queryString).not.toEqual(previous);
    previous = shown;
  }
});

test('Next and Previous page through the list with the footer telling where one is', async ({
  page,
}) => {
  await openHydrated(page, '/receipts');
  const first = await receiptList(page.request);
  const { totalItems, totalPages } = first.pagination;
  expect(totalPages).toBeGreaterThan(2);
  const previousButton = page.getByRole('button', { name: 'Previous' });
  const nextButton = page.getByRole('button', { name: 'Next' });
  await expect(footer(page)).toHaveText(`Showing 1 to 20 of ${formatCount(totalItems)} results`);
  await expect(page.getByText(`Page 1 of ${formatCount(totalPages)}`)).toBeVisible();
  await expect(page.getByText(/^\d+ ms$/)).toBeVisible();
  await expect(previousButton).toBeDisabled();
  const firstPage = await shownNumbers(page);

  const answer = nextListAnswer(page, { page: '2' });
  await nextButton.click();
  const second = await (await answer).json();
  await expect(page).toHaveURL(/\/receipts\?page=2$/);
  await expect(footer(page)).toHaveText(`Showing 21 to 40 of ${formatCount(totalItems)} results`);
  await expect(page.getByText(`Page 2 of ${formatCount(totalPages)}`)).toBeVisible();
  await expectNumbers(
    page,
    second.data.map((receipt: { number: string }) => receipt.number),
  );

  await previousButton.click();
  await expect(page).toHaveURL(/\/receipts$/);
  await expect(page.getByText(`Page 1 of ${formatCount(totalPages)}`)).toBeVisible();
  await expectNumbers(page, firstPage);

  await openHydrated(page, `/receipts?page=${totalPages}`);
  await expect(footer(page)).toHaveText(
    `Showing ${formatCount((totalPages - 1) * 20 + 1)} to ${formatCount(totalItems)} of ${formatCount(totalItems)} results`,
  );
  await expect(nextButton).toBeDisabled();
  await expect(previousButton).toBeEnabled();
});

test('the URL follows the filters: Back, Forward, a reload and a shared link restore them', async ({
  page,
  context,
}) => {
  await openHydrated(page, '/receipts');
  await page.getByLabel('Sort By').selectOption({ label: 'Shipper' });
  await expect(page).toHaveURL(/\/receipts\?sortBy=shipperName$/);
  await searchBox(page).fill('amazon');
  await searchBox(page).press('Enter');
  await expect(page).toHaveURL(/\/receipts\?sortBy=shipperName&search=amazon$/);
  const numbers = async (queryString: string) =>
    (await receiptList(page.request, queryString)).data.map((receipt) => receipt.number);
  const searchedPage1 = await numbers('?sortBy=shipperName&search=amazon');
  const searchedPage2 = await numbers('?page=2&sortBy=shipperName&search=amazon');
  await expectNumbers(page, searchedPage1);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/receipts\?page=2&sortBy=shipperName&search=amazon$/);
  await expect(page.getByText(/^Page 2 of /)).toBeVisible();
  await expectNumbers(page, searchedPage2);

  await page.goBack();
  await expect(page).toHaveURL(/\/receipts\?sortBy=shipperName&search=amazon$/);
  await expect(page.getByText(/^Page 1 of /)).toBeVisible();
  await expectNumbers(page, searchedPage1);
  await expect(searchBox(page)).toHaveValue('amazon');
  await expect(chip(page, 'amazon')).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/receipts\?sortBy=shipperName$/);
  await expect(searchBox(page)).toHaveValue('');
  await expect(chip(page, 'amazon')).toBeHidden();
  await expect(page.getByLabel('Sort By')).toHaveValue('shipperName');

  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(/\/receipts\?page=2&sortBy=shipperName&search=amazon$/);
  await expectNumbers(page, searchedPage2);

  await page.reload();
  await expect(page.getByText(/^Page 2 of /)).toBeVisible();
  await expect(searchBox(page)).toHaveValue('amazon');
  await expect(page.getByLabel('Sort By')).toHaveValue('shipperName');
  await expectNumbers(page, searchedPage2);

  const shared = await context.newPage();
  await shared.goto(page.url());
  await expect(chip(shared, 'amazon')).toBeVisible();
  await expectNumbers(shared, searchedPage2);
});

test('a URL with refused values shows their defaults, keeps the rest and corrects itself', async ({
  page,
}) => {
  await openHydrated(page, '/receipts?page=zero&sortBy=password&sortOrder=asc&search=amazon');
  await expect(page).toHaveURL(/\/receipts\?sortOrder=asc&search=amazon$/);
  await expect(page.getByLabel('Sort By')).toHaveValue('receivedDate');
  await expect(page.getByLabel('Order')).toHaveValue('asc');
  const expected = await receiptList(page.request, '?sortOrder=asc&search=amazon');
  await expectNumbers(
    page,
    expected.data.map((receipt) => receipt.number),
  );
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('each receipt is a card of labelled values: nothing scrolls sideways and its buttons stay usable', async ({
    page,
  }) => {
    await openHydrated(page, '/receipts');
    await expect(dataRows(page)).toHaveCount(20);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    const scroller = receiptsRegion(page).getByRole('table').locator('xpath=..');
    expect(await scroller.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
      true,
    );
    const { data } = await receiptList(page.request);
    const first = dataRows(page).first();
    await expect(first).toContainText(data[0]!.number);
    await expect(first.locator('td[data-label="Weight (lbs)"]')).toHaveText(
      formatWeight(data[0]!.totalWeightValue),
    );
    await expect(first.locator('td[data-label="Volume (ft³)"]')).toHaveText(
      formatVolume(data[0]!.totalVolumeValue),
    );
    const labels = await first
      .getByRole('cell')
      .evaluateAll((cells) =>
        cells.map((cell) => getComputedStyle(cell, '::before').content.replaceAll('"', '')),
      );
    expect(labels).toEqual([
      'Received Date',
      'Receipt #',
      'Shipper',
      'Consignee',
      'Pieces',
      'Weight (lbs)',
      'Volume (ft³)',
      'Destination',
      'none',
      'none',
    ]);
    await expect(first.getByRole('button', { name: data[0]!.status })).toBeInViewport({ ratio: 1 });

    const view = dataRows(page).getByRole('link', { name: 'View' }).first();
    await view.click();
    await expect(page.getByRole('dialog', { name: 'Receipt Details' })).toBeVisible();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog', { name: 'Receipt Details' })).toBeHidden();
  });
});
