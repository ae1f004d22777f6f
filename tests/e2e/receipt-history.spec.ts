/**
 * Status history and export in the browser: a receipt's status history in the details modal and on the receipt's own
 * page (which works without JavaScript, for links from e-mails), View as a link to that page, and the
 * CSV export of the current search. The history tests use a portal whose sandbox moves only when told
 * (HISTORY_URL); the export tests the main portal, whose data stays still for the run.
 */
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { overwriteGetLocale } from '../../src/paraglide/runtime.js';
import { formatDateTime, statusLabel } from '../../src/shared/format';
import type { Receipt, ReceiptDetails } from '../../src/shared/receipts';
import { E2E_URL, HISTORY_URL } from '../support/e2e-env';
import { stallLimit } from '../support/test-pace';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';
import { receiptList } from './receipts-data';

const ENGLISH_HEADER = [
  'Received Date',
  'Receipt Number',
  'Shipper',
  'Consignee',
  'Pieces',
  'Weight (lbs)',
  'Volume (ft³)',
  'Destination',
  'Status',
  'Mode of Transportation',
  'Origin',
];
const DUTCH_HEADER = [
  'Ontvangstdatum',
  'Ontvangstbewijsnummer',
  'Afzender',
  'Geadresseerde',
  'Colli',
  'Gewicht (lbs)',
  'Volume (ft³)',
  'Bestemming',
  'Status',
  'Vervoerswijze',
  'Herkomst',
];

/**
 * A receipt with packages (so View is offered) whose status the provider moved, once the admin's Sync
 * now has mirrored the move: a sync another test started before this move is joined, not repeated, so
 * each try syncs again.
 */
async function receiptThatMoved(request: APIRequestContext): Promise<ReceiptDetails> {
  const advance = await request.post(`${HISTORY_URL}/sandbox/control/advance`);
  expect(advance.status()).toBe(200);
  const { advanced } = (await advance.json()) as { advanced: number[] };
  let found: ReceiptDetails | undefined;
  await expect
    .poll(
      async () => {
        const sync = await request.post(`${HISTORY_URL}/api/sync`, {
          headers: { Origin: HISTORY_URL },
        });
        expect(sync.status()).toBe(200);
        for (const id of advanced) {
          const response = await request.get(`${HISTORY_URL}/api/receipts/${id}`);
          const details = response.ok()
            ? ((await response.json()).data as ReceiptDetails)
            : undefined;
          if (details && details.history.length >= 2 && details.commodities.length > 0)
            found = details;
        }
        return found !== undefined;
      },
      { timeout: stallLimit(40_000), message: 'no moved receipt with packages was mirrored' },
    )
    .toBe(true);
  return found!;
}

/** The timeline shows every status the receipt took, newest first, each with its date and time; the newest is the current one. */
async function expectTimeline(container: Page | Locator, receipt: ReceiptDetails): Promise<void> {
  const newestFirst = [...receipt.history].reverse();
  const entries = container.getByRole('list', { name: 'Status History' }).getByRole('listitem');
  await expect(entries).toHaveCount(newestFirst.length);
  for (const [index, entry] of newestFirst.entries()) {
    await expect(entries.nth(index)).toContainText(statusLabel(entry.status));
    await expect(entries.nth(index)).toContainText(formatDateTime(entry.at));
  }
  await expect(entries.first()).toContainText('Current status');
  await expect(entries.nth(1)).not.toContainText('Current status');
}

function rowOf(page: Page, number: string): Locator {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: number, exact: true }) });
}

test.describe('status history', () => {
  test.use({ baseURL: HISTORY_URL });

  test('View opens the details modal with the status history, newest first, and stays on the list', async ({
    page,
  }) => {
    await signInAsAdmin(page, HISTORY_URL);
    const receipt = await receiptThatMoved(page.request);
    const listUrl = `/receipts?search=${encodeURIComponent(receipt.number)}`;
    await openHydrated(page, listUrl);
    const view = rowOf(page, receipt.number).getByRole('link', { name: 'View' });
    await expect(view).toHaveAttribute('href', `/receipts/${receipt.id}`);
    await view.click();

    const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
    await expect(dialog).toBeVisible();
    await expectTimeline(dialog, receipt);
    await expect(page).toHaveURL(listUrl);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });

  test('a Ctrl-click on View opens the receipt page in a new tab, not the modal', async ({
    page,
  }) => {
    await signInAsAdmin(page, HISTORY_URL);
    const receipt = await receiptThatMoved(page.request);
    await openHydrated(page, `/receipts?search=${encodeURIComponent(receipt.number)}`);
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      rowOf(page, receipt.number)
        .getByRole('link', { name: 'View' })
        .click({ modifiers: ['ControlOrMeta'] }),
    ]);
    await expect(tab).toHaveURL(`${HISTORY_URL}/receipts/${receipt.id}`);
    await expect(
      tab.getByRole('heading', { level: 1, name: `Receipt ${receipt.number}` }),
    ).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Receipt Details' })).toHaveCount(0);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('View leads to the receipt page, which shows the receipt and its status history, newest first', async ({
      page,
    }) => {
      await signInAsAdmin(page, HISTORY_URL);
      const receipt = await receiptThatMoved(page.request);
      await page.goto(`/receipts?search=${encodeURIComponent(receipt.number)}`);
      await rowOf(page, receipt.number).getByRole('link', { name: 'View' }).click();

      await expect(page).toHaveURL(`${HISTORY_URL}/receipts/${receipt.id}`);
      await expect(
        page.getByRole('heading', { level: 1, name: `Receipt ${receipt.number}` }),
      ).toBeVisible();
      await expect(
        page.getByRole('definition').filter({ hasText: receipt.shipperName }).first(),
      ).toBeVisible();
      await expect(
        page.getByRole('list', { name: 'Packages', exact: true }).getByRole('listitem'),
      ).toHaveCount(receipt.commodities.length);
      await expectTimeline(page, receipt);
      await page.getByRole('link', { name: 'Back to receipts' }).click();
      await expect(page).toHaveURL(`${HISTORY_URL}/receipts`);
    });

    test('a receipt that does not exist is a page saying so, with the way back', async ({
      page,
    }) => {
      await signInAsAdmin(page, HISTORY_URL);
      const response = await page.goto('/receipts/999999999');
      expect(response?.status()).toBe(404);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Receipt not found' }),
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to receipts' }).last()).toHaveAttribute(
        'href',
        '/receipts',
      );
    });
  });
});

/** Clicks Export CSV and answers the downloaded file's name and rows. */
async function exportCsv(
  page: Page,
  name = 'Export CSV',
): Promise<{ filename: string; rows: string[][] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name }).click(),
  ]);
  return {
    filename: download.suggestedFilename(),
    rows: parse(await readFile(await download.path()), { bom: true }),
  };
}

/** Every receipt number of a list query, in its order. */
async function listedNumbers(request: APIRequestContext, query: string): Promise<string[]> {
  const numbers: string[] = [];
  for (let page = 1; ; page += 1) {
    const list = await receiptList(request, `?${query}&limit=100&page=${page}`);
    numbers.push(...list.data.map((receipt: Receipt) => receipt.number));
    if (!list.pagination.hasNextPage) return numbers;
  }
}

test.describe('CSV export', () => {
  test.use({ baseURL: E2E_URL });

  test('Export CSV downloads every receipt of the current search and sort, in the list’s order', async ({
    page,
  }) => {
    await signInAsAdmin(page);
    await openHydrated(page, '/receipts');
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('inc');
    await expect(page.getByText('Search: inc', { exact: true })).toBeVisible();
    await page.getByLabel('Sort By').selectOption('number');
    await page.getByLabel('Order').selectOption('asc');
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/receipts/export.csv?sortBy=number&sortOrder=asc&search=inc',
    );

    const { filename, rows } = await exportCsv(page);
    expect(filename).toMatch(/^receipts-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual(ENGLISH_HEADER);
    const numbers = await listedNumbers(page.request, 'search=inc&sortBy=number&sortOrder=asc');
    expect(numbers.length).toBeGreaterThan(20);
    expect(rows.slice(1).map((row) => row[1])).toEqual(numbers);
  });

  test.describe('in Dutch', () => {
    test.use({ locale: 'nl-NL' });

    test('the exported file has a Dutch header row and Dutch statuses', async ({ page }) => {
      await signInAsAdmin(page);
      await openHydrated(page, '/receipts');
      await page.getByRole('searchbox', { name: 'Zoeken', exact: true }).fill('b.v');
      await expect(page.getByText('Zoeken: b.v', { exact: true })).toBeVisible();

      const { rows } = await exportCsv(page, 'CSV exporteren');
      expect(rows[0]).toEqual(DUTCH_HEADER);
      const numbers = await listedNumbers(page.request, 'search=b.v');
      expect(rows.slice(1).map((row) => row[1])).toEqual(numbers);
      overwriteGetLocale(() => 'nl');
      try {
        const statuses = (await receiptList(page.request, '?search=b.v&limit=100')).data.map(
          (receipt: Receipt) => statusLabel(receipt.status),
        );
        expect(rows.slice(1, 101).map((row) => row[8])).toEqual(statuses);
      } finally {
        overwriteGetLocale(() => 'en');
      }
    });
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the export link carries the search the page shows, and downloads', async ({ page }) => {
      await signInAsAdmin(page);
      await page.goto('/receipts?search=inc');
      await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
        'href',
        '/api/receipts/export.csv?search=inc',
      );
      const { rows } = await exportCsv(page);
      expect(rows.slice(1).map((row) => row[1])).toEqual(
        await listedNumbers(page.request, 'search=inc'),
      );
    });
  });
});
