/**
 * The receipt details modal and the tracking map modal as opened from the receipts table. Receipts
 * for each case are found through the API; the table is narrowed to one by searching its number.
 * Map tiles cannot load offline, so the map is checked by Leaflet's own parts: route, vehicle, marker.
 */
import type { Page } from '@playwright/test';
import { formatCount, formatVolume, formatWeight, transportLabel } from '../../src/shared/format';
import type { Receipt } from '../../src/shared/receipts';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';
import { findReceipt } from './receipts-data';

const isInTransit = (receipt: Receipt) => /^in[- ]transit$/i.test(receipt.status);
const isAir = (receipt: Receipt) => /air|40/i.test(receipt.modeOfTransportation);

/** Opens /receipts narrowed to `receipt` and answers its row. */
async function showReceipt(page: Page, receipt: Receipt) {
  await openHydrated(page, `/receipts?search=${encodeURIComponent(receipt.number)}`);
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: receipt.number, exact: true }) });
  await expect(row).toHaveCount(1);
  return row;
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('View opens the receipt details with its packages and their totals; Close closes it', async ({
  page,
}) => {
  const receipt = await findReceipt(
    page.request,
    'with two or more packages',
    (candidate) => candidate.commodities.length >= 2,
  );
  const row = await showReceipt(page, receipt);
  await row.getByRole('link', { name: 'View' }).click();

  const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
  await expect(dialog).toBeVisible();
  const facts = [
    ['Receipt #', receipt.number],
    ['Shipper', receipt.shipperName],
    ['Consignee', receipt.consigneeName],
    ['Destination', receipt.destination],
    ['Status', receipt.status],
    ['Total Pieces', formatCount(receipt.pieces)],
  ];
  for (const [label, value] of facts) {
    await expect(
      dialog
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${label}$`) })
        .first()
        .locator('xpath=following-sibling::dd'),
    ).toHaveText(value!);
  }
  await expect(
    dialog
      .getByRole('term')
      .filter({ hasText: /^Received Date$/ })
      .locator('xpath=following-sibling::dd'),
  ).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);

  const packages = dialog
    .getByRole('list', { name: 'Packages', exact: true })
    .getByRole('listitem');
  await expect(packages).toHaveCount(receipt.commodities.length);
  for (const [index, commodity] of receipt.commodities.entries()) {
    const item = packages.nth(index);
    await expect(item).toContainText(commodity.description);
    await expect(item).toContainText(`Tracking: ${commodity.trackingNumber ?? 'N/A'}`);
    await expect(item).toContainText(`Pieces: ${formatCount(commodity.pieces)}`);
    await expect(item).toContainText(`Weight: ${formatWeight(commodity.totalWeightValue)}`);
    await expect(item).toContainText(`Volume: ${formatVolume(commodity.totalVolumeValue)}`);
  }
  const sum = (pick: (commodity: Receipt['commodities'][number]) => number) =>
    receipt.commodities.reduce((total, commodity) => total + pick(commodity), 0);
  const totals = dialog.getByLabel('Package totals');
  await expect(totals).toContainText(
    `Total Pieces${formatCount(sum((commodity) => commodity.pieces))}`,
  );
  await expect(totals).toContainText(
    `Total Weight${formatWeight(sum((commodity) => commodity.totalWeightValue))}`,
  );
  await expect(totals).toContainText(
    `Total Volume${formatVolume(sum((commodity) => commodity.totalVolumeValue))}`,
  );

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('View is disabled for a receipt without packages, says why, and offers the receipt page with its history', async ({
  page,
}) => {
  const receipt = await findReceipt(
    page.request,
    'without packages',
    (candidate) => candidate.commodities.length === 0,
  );
  const row = await showReceipt(page, receipt);
  const view = row.getByRole('button', { name: 'View' });
  await expect(view).toBeDisabled();
  await expect(view).toHaveAccessibleDescription('No packages yet');
  await row.getByRole('link', { name: `Status history of receipt ${receipt.number}` }).click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${receipt.id}$`));
  await expect(page.getByRole('heading', { name: 'Status History' })).toBeVisible();
});

test.describe('the status button opens the tracking map', () => {
  async function openMap(page: Page, receipt: Receipt) {
    const row = await showReceipt(page, receipt);
    await row.getByRole('button', { name: receipt.status, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Tracking Details' });
    await expect(dialog).toBeVisible();
    for (const text of [
      receipt.number,
      receipt.status,
      transportLabel(receipt.modeOfTransportation),
      'Click and drag to move the map • Scroll to zoom in/out',
    ]) {
      await expect(dialog.getByText(text, { exact: true })).toBeVisible();
    }
    await expect(dialog.locator('.leaflet-container')).toBeVisible();
    await expect(dialog.getByRole('status', { name: 'Loading map' })).toBeHidden();
    await expect(dialog.getByRole('button', { name: 'Zoom in' })).toBeVisible();
    return dialog;
  }

  test('an air route: the dashed line to Suriname with the plane', async ({ page }) => {
    const receipt = await findReceipt(
      page.request,
      'in transit by air',
      (candidate) => isInTransit(candidate) && isAir(candidate),
    );
    const dialog = await openMap(page, receipt);
    await expect(dialog.locator('path[stroke-dasharray="8 8"]')).toHaveCount(1);
    await expect(dialog.getByRole('img', { name: 'Plane' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });

  test('an ocean route: the dashed line to Paramaribo with the ship', async ({ page }) => {
    const receipt = await findReceipt(
      page.request,
      'in transit by ocean',
      (candidate) => isInTransit(candidate) && !isAir(candidate),
    );
    const dialog = await openMap(page, receipt);
    await expect(dialog.locator('path[stroke-dasharray="8 8"]')).toHaveCount(1);
    await expect(dialog.getByRole('img', { name: 'Ship' })).toBeVisible();
  });

  test('a receipt at the Miami warehouse: its marker, no route', async ({ page }) => {
    const receipt = await findReceipt(page.request, 'at the MIA warehouse', (candidate) =>
      /received at mia warehouse/i.test(candidate.status),
    );
    const dialog = await openMap(page, receipt);
    await expect(dialog.getByRole('img', { name: 'Miami warehouse (Doral)' })).toBeVisible();
    await expect(dialog.locator('path[stroke-dasharray="8 8"]')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test.describe('the tracking map without its tiles, on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('when the tile server cannot be reached, the map says so, and a phone is told to drag and pinch', async ({
    page,
  }) => {
    const receipt = await findReceipt(
      page.request,
      'in transit by air',
      (candidate) => isInTransit(candidate) && isAir(candidate),
    );
    // Every address but the portal's own: the tile server is out of reach.
    await page.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    // On a phone the list is cards: the one receipt the search finds, by its status button.
    await openHydrated(page, `/receipts?search=${encodeURIComponent(receipt.number)}`);
    await expect(page.getByText(receipt.number, { exact: true })).toHaveCount(1);
    await page.getByRole('button', { name: receipt.status, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Tracking Details' });
    const banner = dialog
      .getByRole('status')
      .filter({ hasText: "The map's tiles could not be loaded" });
    await expect(banner).toBeVisible();
    // Clear of the zoom buttons, which stay usable.
    const [bannerBox, zoomBox] = [
      await banner.boundingBox(),
      await dialog.getByRole('button', { name: 'Zoom out' }).boundingBox(),
    ];
    expect(bannerBox!.x).toBeGreaterThanOrEqual(zoomBox!.x + zoomBox!.width);
    await expect(dialog.locator('path[stroke-dasharray="8 8"]')).toHaveCount(1);
    await expect(
      dialog.getByText('Drag to move the map • Pinch to zoom in/out', { exact: true }),
    ).toBeVisible();
    await expect(
      dialog.getByText('Click and drag to move the map • Scroll to zoom in/out', { exact: true }),
    ).toBeHidden();
    // The close button at the top is in view without scrolling the window.
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeInViewport();
  });
});
