/**
 * The import screen (PROVIDER=file), on the imports portal: an export picked or dropped is previewed
 * with its counts and first rows, its columns placed with one select per field, imported, and listed
 * in the history; in English on a desktop and in Dutch on a 390 px phone.
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { IMPORTS_URL } from '../support/e2e-env';
import { expect, openHydrated, signInAsAdmin, test, uniqueName } from './fixtures';

test.use({ baseURL: IMPORTS_URL });

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, IMPORTS_URL);
});

const csvFile = (name: string, lines: string[]) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8'),
});

async function pick(page: Page, label: string, file: ReturnType<typeof csvFile>) {
  await page.getByLabel(label).setInputFiles(file);
}

test('an export is previewed, imported and listed in the history with its row errors to download', async ({
  page,
}) => {
  const prefix = uniqueName('E2E').toUpperCase();
  await openHydrated(page, '/admin/imports');
  await expect(page.getByRole('heading', { name: 'Imports', level: 1 })).toBeVisible();
  const name = `${prefix}.csv`;
  await pick(
    page,
    'Drop an export here, or choose a file',
    csvFile(name, [
      'WR #,Date Received,Shipper,Consignee,Pcs,Weight (lbs),Tracking #,Description',
      `${prefix}-1,06/13/2026 2:30 PM,"Walmart, Inc.",Jansen Trading,1,12.5,1ZE2E0000001,Shoes`,
      `${prefix}-1,06/13/2026 2:30 PM,"Walmart, Inc.",Jansen Trading,1,2.5,1ZE2E0000002,Socks`,
      `${prefix}-2,not a date,Target,Jansen Trading,1,3,1ZE2E0000003,Toys`,
    ]),
  );
  const preview = page.getByRole('region', { name: `Preview of ${name}` });
  await expect(preview.getByRole('status')).toHaveText(
    '1 new, 0 updated, 0 unchanged, 0 removed, 1 row errors',
  );
  await expect(preview.getByRole('row')).toHaveCount(4);
  await expect(preview.getByRole('cell', { name: 'Walmart, Inc.' }).first()).toBeVisible();

  await preview.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported: 1 new' })).toBeVisible();
  const history = page.getByRole('region', { name: 'History' });
  const entry = history.getByRole('listitem').filter({ hasText: name });
  await expect(entry).toContainText('1 new, 0 updated, 0 unchanged, 0 removed, 1 row errors');
  const download = page.waitForEvent('download');
  await entry.getByRole('link', { name: 'Download 1 row errors (CSV)' }).click();
  expect((await download).suggestedFilename()).toMatch(/^import-\d+-errors\.csv$/);
});

test('a file over 50 MB is refused before it is sent: no upload starts, and the screen says why', async ({
  page,
}, testInfo) => {
  await openHydrated(page, '/admin/imports');
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/admin/imports') && request.method() === 'POST')
      uploads.push(request.url());
  });
  // A real file on disk: Playwright hands larger buffers to the browser only by path.
  const big = testInfo.outputPath('export.csv');
  await writeFile(big, Buffer.alloc(50 * 1024 * 1024 + 1, 'a'));
  await page.getByLabel('Drop an export here, or choose a file').setInputFiles(big);
  await expect(page.getByRole('alert')).toHaveText('The file is larger than 50MB.');
  expect(uploads).toEqual([]);
});

test.describe('on a phone, in Dutch', () => {
  test.use({ viewport: { width: 390, height: 844 }, locale: 'nl-NL' });

  test('columns the portal does not know are placed with one select per field, then imported', async ({
    page,
  }) => {
    const prefix = uniqueName('NL').toUpperCase();
    await openHydrated(page, '/admin/imports');
    await expect(page.getByRole('heading', { name: 'Importeren', level: 1 })).toBeVisible();
    await pick(
      page,
      'Sleep een export hierheen, of kies een bestand',
      csvFile(`${prefix}.csv`, [
        'Ref;Wanneer;Wie;Van',
        `${prefix}-1;15-06-2026;Jansen Trading;DHL`,
      ]),
    );
    const columns = page.getByRole('region', { name: 'Kolommen' });
    await expect(columns.getByRole('alert')).toContainText('Ontvangstnummer');
    await columns.getByLabel('Ontvangstnummer').selectOption('Ref');
    await columns.getByLabel('Ontvangstdatum').selectOption('Wanneer');
    await columns.getByLabel('Geadresseerde').selectOption('Wie');
    await columns.getByLabel('Verzender').selectOption('Van');
    await columns.getByRole('button', { name: 'Opnieuw bekijken' }).click();
    const preview = page.getByRole('region', { name: `Voorbeeld van ${prefix}.csv` });
    await expect(preview.getByRole('status')).toHaveText(
      '1 nieuw, 0 bijgewerkt, 0 ongewijzigd, 0 verwijderd, 0 rijfouten',
    );
    await preview.getByRole('button', { name: 'Importeren' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Geïmporteerd: 1 nieuw' }),
    ).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
