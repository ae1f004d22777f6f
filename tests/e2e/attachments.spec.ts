/**
 * A customer on a phone (390 px, 2×), in English and in Dutch, opens a delivered receipt with three
 * packages: the details modal shows the three photos as lazy thumbnails of a fixed size, a photo opens
 * in its larger view, and the proof of delivery downloads as a PDF; the receipt's own page shows the
 * same, and both fit the screen. What opening the modal transfers is measured against its budget
 * (≤ 60 KB, the details, the list and the thumbnails together).
 */
import { readFile } from 'node:fs/promises';
import type { Page, Response as PlaywrightResponse } from '@playwright/test';
import type { Receipt } from '../../src/shared/receipts';
import { AdminApi, adminRequest, expect, openHydrated, test, uniqueName } from './fixtures';
import { findReceipt } from './receipts-data';

const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
const PASSWORD = 'photos-pass-1';
const KB = 1024;

const TEXTS = {
  'en-US': {
    view: 'View',
    details: 'Receipt Details',
    photos: 'Package photos',
    documents: 'Documents',
    title: 'Photos and documents',
    viewer: 'Photo 1 of 3',
    back: 'Back to the receipt',
    alt: (number: string) => `Package photo 1 of 3, receipt ${number}`,
    download: (name: string) => `Download ${name}`,
    pod: 'Proof of delivery',
    original: /^Download the original \(\d+\.\d\d KB\)$/,
  },
  'nl-NL': {
    view: 'Bekijken',
    details: 'Details van het ontvangstbewijs',
    photos: "Foto's van de pakketten",
    documents: 'Documenten',
    title: "Foto's en documenten",
    viewer: 'Foto 1 van 3',
    back: 'Terug naar het ontvangstbewijs',
    alt: (number: string) => `Pakketfoto 1 van 3, ontvangstbewijs ${number}`,
    download: (name: string) => `${name} downloaden`,
    pod: 'Afleverbewijs',
    original: /^Origineel downloaden \(\d+,\d\d KB\)$/,
  },
} as const;

let receipt: Receipt;
let customer: { username: string; password: string };

test.use(PHONE);

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await adminRequest(playwright, baseURL!);
  const admin = new AdminApi(request, baseURL!);
  await admin.importConsignees();
  receipt = await findReceipt(
    request,
    'delivered, with three packages',
    (candidate) => candidate.status === 'Delivered' && candidate.commodities.length === 3,
  );
  const consignee = (await admin.assignments()).find(
    (row) => row.consignee.name === receipt.consigneeName,
  )!.consignee;
  // Made anew each time: a worker may run this file's tests apart, each time after this.
  customer = { username: uniqueName('photos'), password: PASSWORD };
  const user = await admin.createUser({ ...customer, role: 'viewer' });
  await admin.addUserToConsignee(consignee.id, user.id);
  await request.dispose();
});

async function signInAsCustomer(page: Page, baseURL: string): Promise<void> {
  const response = await page
    .context()
    .request.post(`${baseURL}/api/auth/login`, { data: customer, headers: { Origin: baseURL } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Every response from now on, with its size on the wire (headers and the body as sent). */
function recordTransfer(page: Page): () => Promise<Array<{ url: string; bytes: number }>> {
  const sizes: Array<Promise<{ url: string; bytes: number }>> = [];
  const listener = (response: PlaywrightResponse) => {
    sizes.push(
      response
        .finished()
        .then(() => response.request().sizes())
        .then((size) => ({
          url: response.url(),
          bytes: size.responseBodySize + size.responseHeadersSize,
        })),
    );
  };
  page.on('response', listener);
  return async () => {
    page.off('response', listener);
    return Promise.all(sizes);
  };
}

/** Whether the images have arrived and been decoded, with their natural widths. */
const naturalWidths = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((images) =>
      images.map((image) =>
        (image as HTMLImageElement).complete ? (image as HTMLImageElement).naturalWidth : 0,
      ),
    );

/** The page is no wider than the phone, and the open dialogs neither. */
async function expectFits(page: Page, what: string): Promise<void> {
  const fit = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    boxes: [...document.querySelectorAll('dialog[open] .modal-box')].map((box) => ({
      scroll: box.scrollWidth,
      client: box.clientWidth,
      right: box.getBoundingClientRect().right,
    })),
    width: innerWidth,
  }));
  expect(fit.page, `${what}: the page's width`).toBeLessThanOrEqual(fit.width);
  for (const box of fit.boxes) {
    expect(box.scroll, `${what}: a dialog wider than its box`).toBeLessThanOrEqual(box.client + 1);
    expect(box.right, `${what}: a dialog past the screen's edge`).toBeLessThanOrEqual(fit.width);
  }
}

for (const locale of ['en-US', 'nl-NL'] as const) {
  const texts = TEXTS[locale];

  test(`a customer on a phone (${locale}) sees a receipt's photos, opens one and downloads the proof of delivery`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ ...PHONE, locale, baseURL, acceptDownloads: true });
    const page = await context.newPage();
    await signInAsCustomer(page, baseURL!);
    await openHydrated(page, `/receipts?search=${encodeURIComponent(receipt.number)}`);
    const row = page.getByRole('row').filter({ hasText: receipt.number });
    await expect(row).toHaveCount(1);
    await page.waitForLoadState('networkidle');

    const transfer = recordTransfer(page);
    await row.getByRole('link', { name: texts.view, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: texts.details });
    await expect(dialog.getByRole('heading', { name: texts.title })).toBeVisible();
    const thumbnails = dialog.getByRole('list', { name: texts.photos }).getByRole('img');
    await expect(thumbnails).toHaveCount(3);
    // Lazy: they load once scrolled into view, as the customer reads on.
    await thumbnails.last().scrollIntoViewIfNeeded();
    await expect.poll(() => naturalWidths(page, 'dialog[open] ul img')).toEqual([320, 320, 320]);
    await page.waitForLoadState('networkidle');
    const responses = await transfer();
    const total = responses.reduce((sum, response) => sum + response.bytes, 0);
    const thumbs = responses.filter((response) => response.url.includes('?size=thumb'));
    expect(thumbs).toHaveLength(3);
    const figures = `opening a receipt with 3 photos on a phone (${locale}): ${(total / KB).toFixed(1)} KB in ${responses.length} responses (thumbnails ${thumbs.map((thumb) => `${(thumb.bytes / KB).toFixed(1)}`).join(' + ')} KB)`;
    test.info().annotations.push({ type: 'transfer', description: figures });
    console.log(figures);
    expect(total).toBeLessThanOrEqual(60 * KB);

    const first = thumbnails.first();
    await expect(first).toHaveAttribute('alt', texts.alt(receipt.number));
    await expect(first).toHaveAttribute('loading', 'lazy');
    await expect(first).toHaveAttribute('width', '160');
    await expect(first).toHaveAttribute('height', '120');
    const documents = dialog.getByRole('list', { name: texts.documents });
    await expect(documents.getByRole('listitem')).toHaveCount(1);
    await expect(documents.getByText(texts.pod)).toBeVisible();
    await expectFits(page, 'the details');

    // A photo opens larger in the details' place; Escape goes back to the details, to the photo it opened.
    const opener = dialog.getByRole('link', { name: texts.alt(receipt.number) });
    await opener.click();
    const viewer = page.getByRole('dialog', { name: texts.viewer });
    await expect(viewer.getByRole('img', { name: texts.alt(receipt.number) })).toBeVisible();
    await expect
      .poll(() => naturalWidths(page, 'dialog[open] img[src$="size=large"]'))
      .toEqual([1280]);
    await expect(viewer.getByRole('link', { name: texts.original })).toBeVisible();
    await expect(viewer.getByRole('button', { name: texts.back })).toBeFocused();
    await expectFits(page, 'the photo');
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(opener).toBeFocused();

    const name = `${receipt.number}-proof-of-delivery.pdf`;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      documents.getByRole('link', { name: texts.download(name) }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(name);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await context.close();
  });

  test(`the receipt's page on a phone (${locale}) shows its photos, each linking to its larger view, and the proof of delivery to download`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ ...PHONE, locale, baseURL, acceptDownloads: true });
    const page = await context.newPage();
    await signInAsCustomer(page, baseURL!);
    await page.goto(`/receipts/${receipt.id}`);
    const section = page.getByRole('region', { name: texts.title });
    const thumbnails = section.getByRole('list', { name: texts.photos }).getByRole('img');
    await expect(thumbnails).toHaveCount(3);
    await thumbnails.last().scrollIntoViewIfNeeded();
    await expect.poll(() => naturalWidths(page, 'main ul img')).toEqual([320, 320, 320]);
    await expectFits(page, `/receipts/${receipt.id}`);
    const name = `${receipt.number}-proof-of-delivery.pdf`;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('link', { name: texts.download(name) }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(name);

    await section.getByRole('link', { name: texts.alt(receipt.number) }).click();
    await expect(page).toHaveURL(/\/api\/attachments\/\d+\?size=large$/);
    await context.close();
  });
}
