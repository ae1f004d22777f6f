/**
 * Dutch for a customer: a browser that asks for Dutch (Accept-Language nl) gets the dashboard and
 * the receipts screen in Dutch — texts, '1.234,567', '23-11-2026' — rendered on the server and kept
 * by the hydrated island without a mismatch; the language switcher's post brings English back.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { FIGURE_FORMATS, receiptCount } from '../../src/components/dashboard/figures';
import { overwriteGetLocale } from '../../src/paraglide/runtime.js';
import { DASHBOARD_REFETCH_MS } from '../../src/shared/constants';
import {
  formatCount,
  formatDate,
  formatVolume,
  formatWeight,
  statusLabel,
} from '../../src/shared/format';
import type { DashboardStats, Receipt, ReceiptList } from '../../src/shared/receipts';
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { adminRequest, expect, openHydrated, test, uniqueName } from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL, locale: 'nl-NL' });

const PASSWORD = 'klant-pass-1';
/** The demo customer's share: three consignees. */
const CONSIGNEE_COUNT = 3;

/** What the formatter writes for a Dutch reader (this process formats in English otherwise). */
function inDutch<T>(format: () => T): T {
  overwriteGetLocale(() => 'nl');
  try {
    return format();
  } finally {
    overwriteGetLocale(() => 'en');
  }
}

/**
 * Every console error and uncaught page error from now on: React reports a hydration mismatch as one.
 * Not a branding image that failed to load: the branding tests replace this portal's logo and
 * background at any moment, and a page rendered just before names the variant they removed.
 */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const brandingImage = /^\/api\/(logo|background)\/image\//.test(
      new URL(message.location().url || 'about:blank', 'http://x').pathname,
    );
    if (message.type() === 'error' && !brandingImage) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function json<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data;
}

const figure = (page: Page, label: string) =>
  page.getByRole('region', { name: label, exact: true }).getByRole('paragraph').first();
const receiptsRegion = (page: Page, name: string) =>
  page.getByRole('region', { name, exact: true });
const dataRows = (page: Page, region: string) =>
  receiptsRegion(page, region)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
/** The value beside a label of the details modal. */
const fact = (dialog: ReturnType<Page['getByRole']>, label: string) =>
  dialog
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .first()
    .locator('xpath=following-sibling::dd');

test('a customer reads the dashboard and the receipts in Dutch, without a hydration mismatch, and switches back to English', async ({
  page,
  adminApi,
  playwright,
}) => {
  // The demo customer: a viewer with the three consignees that have the most receipts.
  const admin = await adminRequest(playwright, ADMIN_AREA_URL);
  expect((await admin.post('/api/consignees/import')).status()).toBe(200);
  const top: DashboardStats['topConsignees'] = (
    await json<DashboardStats>(admin, '/api/receipts/stats')
  ).topConsignees.slice(0, CONSIGNEE_COUNT);
  const consignees = (
    await json<Array<{ id: number; name: string }>>(admin, '/api/consignees')
  ).filter((consignee) => top.some((entry) => entry.name === consignee.name));
  expect(consignees).toHaveLength(CONSIGNEE_COUNT);
  const username = uniqueName('klant');
  const customer = await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
  for (const consignee of consignees) await adminApi.addUserToConsignee(consignee.id, customer.id);

  const errors = collectErrors(page);
  const signedIn = await page.request.post('/api/auth/login', {
    data: { username, password: PASSWORD },
    headers: { Origin: ADMIN_AREA_URL },
  });
  expect(signedIn.status()).toBe(200);

  // Dashboard: Dutch labels, Dutch figures.
  const stats = await json<DashboardStats>(page.request, '/api/receipts/stats');
  await page.clock.install();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('Overzicht van uw ontvangstbewijzen en statistieken')).toBeVisible();
  const cards: [label: string, value: string][] = inDutch(() => [
    ['Totaal ontvangstbewijzen', FIGURE_FORMATS.count(stats.totalReceipts)],
    ['Totaal gewicht (lbs)', FIGURE_FORMATS.weight(stats.totalWeight)],
    ['Totaal volume (ft³)', FIGURE_FORMATS.volume(stats.totalVolume)],
    ['Totaal colli', FIGURE_FORMATS.count(stats.totalPieces)],
    ['Gemiddeld gewicht', FIGURE_FORMATS.weight(stats.averageWeight)],
  ]);
  for (const [label, value] of cards) await expect(figure(page, label)).toHaveText(value);
  await expect(figure(page, 'Totaal gewicht (lbs)')).toHaveText(/^\d{1,3}(\.\d{3})+,\d{3} lbs$/);
  await expect(
    page
      .getByRole('region', { name: 'Gemiddeld volume' })
      .getByText('per ontvangstbewijs', { exact: true }),
  ).toBeVisible();
  const topList = page.getByRole('region', { name: 'Top geadresseerden' }).getByRole('listitem');
  await expect(topList).toHaveCount(CONSIGNEE_COUNT);
  await expect(topList.first()).toContainText(
    inDutch(() => receiptCount(stats.topConsignees[0]!.count)),
  );
  await expect(topList.first()).toContainText(/\d ontvangstbewijzen$/);
  // The refresh script rewrites the figures in the page's language too.
  const refetch = page.waitForResponse((response) =>
    response.url().endsWith('/api/receipts/stats'),
  );
  await page.clock.runFor(DASHBOARD_REFETCH_MS);
  await refetch;
  await expect(page.getByRole('status', { name: 'Statistieken worden geladen' })).toBeHidden();
  for (const [label, value] of cards) await expect(figure(page, label)).toHaveText(value);
  await expect(topList.first()).toContainText(/\d ontvangstbewijzen$/);

  // Receipts: Dutch table, footer and paging.
  const list: ReceiptList = await (await page.request.get('/api/receipts')).json();
  expect(list.pagination.totalPages).toBeGreaterThan(1);
  await openHydrated(page, '/receipts');
  await expect(page.getByRole('heading', { name: 'Ontvangstbewijzen', level: 1 })).toBeVisible();
  await expect(receiptsRegion(page, 'Ontvangstbewijzen').getByRole('columnheader')).toHaveText([
    'Ontvangstdatum',
    'Ontvangstbewijsnr.',
    'Afzender',
    'Geadresseerde',
    'Colli',
    'Gewicht (lbs)',
    'Volume (ft³)',
    'Bestemming',
    'Status',
    'Acties',
  ]);
  await expect(dataRows(page, 'Ontvangstbewijzen')).toHaveCount(20);
  await expect(
    page.getByText(
      `Resultaten 1 tot en met 20 van ${inDutch(() => formatCount(list.pagination.totalItems))}`,
      { exact: true },
    ),
  ).toBeVisible();
  await expect(
    page.getByText(`Pagina 1 van ${inDutch(() => formatCount(list.pagination.totalPages))}`, {
      exact: true,
    }),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Paginering' }).getByRole('button', { name: 'Volgende' }),
  ).toBeEnabled();
  const firstRow = dataRows(page, 'Ontvangstbewijzen').first();
  const first = list.data[0]!;
  await expect(firstRow.getByRole('cell').first()).toHaveText(
    inDutch(() => formatDate(first.receivedDate)),
  );
  await expect(firstRow.getByRole('cell').first()).toHaveText(/^\d{2}-\d{2}-\d{4}$/);
  await expect(
    firstRow.getByRole('button', { name: inDutch(() => statusLabel(first.status)) }),
  ).toHaveAttribute('title', 'Trackingkaart tonen');
  // The provider's warehouse statuses read in Dutch too (messages/nl.json), not as the provider sent them.
  const atWarehouse = list.data.find((receipt) =>
    /^Received at (MIA|NL) warehouse$/.test(receipt.status),
  );
  expect(atWarehouse, 'a receipt at a warehouse on the first page').toBeDefined();
  const atWarehouseRow = dataRows(page, 'Ontvangstbewijzen').filter({
    hasText: atWarehouse!.number,
  });
  await expect(
    atWarehouseRow.getByRole('button', {
      name: `Ontvangen in magazijn ${/MIA|NL/.exec(atWarehouse!.status)![0]}`,
      exact: true,
    }),
  ).toBeVisible();

  // Search, then the details modal of the heaviest receipt on the page that has packages.
  const receipt: Receipt = list.data
    .filter((candidate) => candidate.commodities.length > 0)
    .sort((a, b) => b.totalWeightValue - a.totalWeightValue)[0]!;
  const searchBox = page.getByRole('searchbox', { name: 'Zoeken', exact: true });
  await expect(searchBox).toHaveAttribute(
    'placeholder',
    'Zoek op ontvangstbewijs, afzender, geadresseerde...',
  );
  await searchBox.fill(receipt.number);
  await expect(page.getByText(`Zoeken: ${receipt.number}`, { exact: true })).toBeVisible();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: receipt.number, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(page.getByText(/^Resultaten 1 tot en met \d+ van \d+$/)).toBeVisible();
  await row.getByRole('link', { name: 'Bekijken' }).click();

  const dialog = page.getByRole('dialog', { name: 'Details van het ontvangstbewijs' });
  await expect(dialog).toBeVisible();
  await expect(fact(dialog, 'Ontvangstbewijsnr.')).toHaveText(receipt.number);
  await expect(fact(dialog, 'Afzender')).toHaveText(receipt.shipperName);
  await expect(fact(dialog, 'Geadresseerde')).toHaveText(receipt.consigneeName);
  await expect(fact(dialog, 'Status')).toHaveText(inDutch(() => statusLabel(receipt.status)));
  await expect(fact(dialog, 'Ontvangstdatum')).toHaveText(
    inDutch(() => formatDate(receipt.receivedDate)),
  );
  await expect(fact(dialog, 'Ontvangstdatum')).toHaveText(/^\d{2}-\d{2}-\d{4}$/);
  await expect(fact(dialog, 'Totaal colli')).toHaveText(inDutch(() => formatCount(receipt.pieces)));
  // Exactly: a receipt with photos also has "Foto's van de pakketten", a list whose name holds it.
  const packages = dialog
    .getByRole('list', { name: 'Pakketten', exact: true })
    .getByRole('listitem');
  await expect(packages).toHaveCount(receipt.commodities.length);
  const commodity = receipt.commodities[0]!;
  await expect(packages.first()).toContainText(
    inDutch(() => `Colli: ${formatCount(commodity.pieces)}`),
  );
  await expect(packages.first()).toContainText(
    inDutch(() => `Gewicht: ${formatWeight(commodity.totalWeightValue)}`),
  );
  await expect(packages.first()).toContainText(
    inDutch(() => `Volume: ${formatVolume(commodity.totalVolumeValue)}`),
  );
  const totals = fact(dialog, 'Totaal gewicht');
  const totalWeight = receipt.commodities.reduce((sum, item) => sum + item.totalWeightValue, 0);
  await expect(totals).toHaveText(inDutch(() => formatWeight(totalWeight)));
  await expect(totals).toHaveText(/^\d{1,3}(\.\d{3})*,\d{3} lbs$/);
  await dialog.getByRole('button', { name: 'Sluiten' }).click();
  await expect(dialog).toBeHidden();

  expect(errors, 'console errors (a hydration mismatch is one)').toEqual([]);

  // The switcher's post: English from now on, for this signed-in customer.
  const switched = await page.request.post('/language', {
    form: { locale: 'en', returnTo: '/receipts' },
    headers: { Origin: ADMIN_AREA_URL },
  });
  expect(switched.ok()).toBe(true);
  await page.goto('/dashboard');
  await expect(
    page.getByText('Overview of your freight receipt data and statistics'),
  ).toBeVisible();
  await expect(figure(page, 'Total Weight (lbs)')).toHaveText(
    FIGURE_FORMATS.weight(stats.totalWeight),
  );
  await expect(
    page.getByRole('region', { name: 'Top Consignees' }).getByRole('listitem').first(),
  ).toContainText(receiptCount(stats.topConsignees[0]!.count));
  await openHydrated(page, '/receipts');
  await expect(page.getByRole('heading', { name: 'Receipts', level: 1 })).toBeVisible();
  await expect(receiptsRegion(page, 'Receipts').getByRole('columnheader').first()).toHaveText(
    'Received Date',
  );
  await expect(
    page.getByText(`Showing 1 to 20 of ${formatCount(list.pagination.totalItems)} results`, {
      exact: true,
    }),
  ).toBeVisible();
  await expect(
    page.getByText(`Page 1 of ${formatCount(list.pagination.totalPages)}`, { exact: true }),
  ).toBeVisible();
  await expect(dataRows(page, 'Receipts').first().getByRole('cell').first()).toHaveText(
    formatDate(first.receivedDate),
  );
  expect(errors).toEqual([]);

  for (const consignee of consignees)
    await admin.delete(`/api/consignees/${consignee.id}/remove-user/${customer.id}`);
  await admin.dispose();
});
