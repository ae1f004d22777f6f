/**
 * Activity (/admin/activity): the admin does something, finds it in the audit trail, filters by action
 * and downloads the CSV, in English and in Dutch, on a desktop and on a phone. Other test files use
 * the same portal at the same time, so each test finds its own entries by the user it created and
 * never counts rows.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, openHydrated, signInAsAdmin, test, uniqueName } from './fixtures';

const PASSWORD = 'activity-pass-1';

/** The row of the entry about `username`, found by its target. */
const entryRow = (page: Page, username: string) =>
  page.getByRole('row').filter({ hasText: `user ${username}` });

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('the admin creates a user, finds it under Activity, filters by action and exports the CSV', async ({
  page,
}) => {
  const username = uniqueName('activity');
  await openHydrated(page, '/admin/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog).toBeHidden();

  await page
    .getByRole('navigation', { name: 'Main', exact: true })
    .getByRole('link', { name: 'Activity' })
    .click();
  await expect(page).toHaveURL(/\/admin\/activity$/);
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  const row = entryRow(page, username);
  await expect(row.getByRole('cell')).toHaveText([
    'User created',
    'admin',
    `user ${username}`,
    'Role: viewer',
    /\S/,
    /\d/,
  ]);

  const filters = page.getByRole('form', { name: 'Filter the activity' });
  await filters.getByLabel('Action').selectOption({ label: 'User created' });
  await filters.getByLabel('User').fill('admin');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\/admin\/activity\?actor=admin&action=user\.created/);
  await expect(entryRow(page, username)).toBeVisible();
  for (const shown of await page
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .all()) {
    await expect(shown.getByRole('cell').first()).toHaveText('User created');
  }

  await filters.getByLabel('Action').selectOption({ label: 'User deleted' });
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/action=user\.deleted/);
  await expect(entryRow(page, username)).toHaveCount(0);

  await filters.getByLabel('Action').selectOption({ label: 'User created' });
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv.startsWith('\uFEFFTime,User,Action,Target,IP address,Detail\r\n')).toBe(true);
  expect(csv).toContain(`,admin,user.created,user ${username},`);
  expect(csv).not.toContain('user.deleted');

  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/admin\/activity$/);
  await expect(
    page.getByRole('form', { name: 'Filter the activity' }).getByLabel('Action'),
  ).toHaveValue('');
});

test.describe('in Dutch', () => {
  test.use({ locale: 'nl-NL' });

  test('the entry, the filter and the table are in Dutch', async ({ page, adminApi }) => {
    const username = uniqueName('activiteit');
    await adminApi.createUser({ username, password: PASSWORD, role: 'admin-viewer' });
    await openHydrated(page, '/admin/activity');
    await expect(page).toHaveTitle(/^Activiteit · /);
    await expect(page.getByRole('heading', { name: 'Activiteit', level: 1 })).toBeVisible();
    await expect(
      page
        .getByRole('navigation', { name: 'Hoofdmenu', exact: true })
        .getByRole('link', { name: 'Activiteit' }),
    ).toHaveAttribute('aria-current', 'page');

    const filters = page.getByRole('form', { name: 'Activiteit filteren' });
    await filters.getByLabel('Actie').selectOption({ label: 'Gebruiker aangemaakt' });
    await filters.getByRole('button', { name: 'Filters toepassen' }).click();
    await expect(page).toHaveURL(/action=user\.created/);
    await expect(page.getByRole('columnheader')).toHaveText([
      'Actie',
      'Gebruiker',
      'Onderwerp',
      'Details',
      'IP-adres',
      'Tijdstip',
    ]);
    const row = entryRow(page, username);
    await expect(row.getByRole('cell').first()).toHaveText('Gebruiker aangemaakt');
    await expect(row.getByRole('cell').nth(3)).toHaveText('Rol: beheerder (alleen lezen)');
    await expect(row.getByRole('cell').last()).toHaveText(/^\d{2}-\d{2}-\d{4},? \d{2}:\d{2}$/);

    await filters.getByLabel('Van').fill('2026-03-02');
    await filters.getByLabel('Tot en met').fill('2026-03-01');
    await filters.getByRole('button', { name: 'Filters toepassen' }).click();
    await expect(page.getByRole('alert')).toHaveText('from mag niet later zijn dan to');
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the table scrolls with the action and the time in view', async ({ page, adminApi }) => {
    const username = uniqueName('phone');
    await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
    await openHydrated(page, '/admin/activity');
    await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();

    const row = entryRow(page, username);
    const [action, time] = [row.getByRole('cell').first(), row.getByRole('cell').last()];
    await expect(action).toHaveText('User created');
    for (const cell of [action, time]) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
