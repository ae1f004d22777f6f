import type { Page } from '@playwright/test';
import { STORED_USER_KEY } from '../../src/shared/constants';
import { expect, signIn, test, uniqueName } from './fixtures';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };
const WIDE_ONLY_ENTRIES = ['Logo Management', 'Background Management', 'Token Management'];
const ADMIN_ENTRIES = ['User Management', 'User-Consignee Management', ...WIDE_ONLY_ENTRIES];

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const bodyOverflow = (page: Page) => page.evaluate(() => getComputedStyle(document.body).overflow);

test.describe('at 1280 px', () => {
  test.use({ viewport: WIDE });

  test('an admin sees full name, role, the whole menu and the User Management group', async ({
    page,
    adminApi,
  }) => {
    const admin = await adminApi.createUser({
      username: uniqueName('shadmin'),
      fullName: 'Ada Shell',
      password: 'admin-password',
      role: 'admin',
    });
    await signIn(page, admin.username, 'admin-password');

    const topBar = page.getByRole('banner');
    await expect(topBar.getByText('Ada Shell', { exact: true })).toBeVisible();
    await expect(topBar.getByText('Admin', { exact: true })).toBeVisible();
    await expect(topBar.getByText('Freight Portal', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    // The logo is decorative (empty alt), so it has no role to find it by.
    const logo = topBar.locator('img');
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

    for (const entry of [
      'Dashboard',
      'Receipts',
      'Locations',
      'Profile',
      'User-Consignee Management',
      ...WIDE_ONLY_ENTRIES,
    ]) {
      await expect(menu(page).getByRole('link', { name: entry, exact: true })).toBeVisible();
    }
    await expect(menu(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const group = ['Admins', 'Admin Viewers', 'Viewers'].map((name) =>
      menu(page).getByRole('link', { name, exact: true }),
    );
    for (const link of group) await expect(link).toBeHidden();
    await menu(page).getByText('User Management', { exact: true }).click();
    for (const link of group) await expect(link).toBeVisible();
    await expect(group[1]!).toHaveAttribute('href', '/admin/users/admin-viewers');
  });

  test('the User Management group opens by itself on the user pages and marks the current one', async ({
    page,
    adminApi,
  }) => {
    const admin = await adminApi.createUser({
      username: uniqueName('shgroup'),
      password: 'admin-password',
      role: 'admin',
    });
    await signIn(page, admin.username, 'admin-password');
    await page.goto('/admin/users/viewers');
    const viewers = menu(page).getByRole('link', { name: 'Viewers', exact: true });
    await expect(viewers).toBeVisible();
    await expect(viewers).toHaveAttribute('aria-current', 'page');
    await expect(menu(page).getByRole('link', { name: 'Admins', exact: true })).toBeVisible();

    await menu(page).getByRole('link', { name: 'Profile', exact: true }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(viewers).toBeHidden();
  });

  test('an admin-viewer sees the capitalised role and no admin entries', async ({
    page,
    adminApi,
  }) => {
    const user = await adminApi.createUser({
      username: uniqueName('shav'),
      fullName: 'Ava Viewer',
      password: 'user-password',
      role: 'admin-viewer',
    });
    await signIn(page, user.username, 'user-password');
    await expect(page.getByRole('banner').getByText('Ava Viewer', { exact: true })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Admin-viewer', { exact: true })).toBeVisible();
    await expect(menu(page).getByRole('link', { name: 'Receipts' })).toBeVisible();
    for (const entry of ADMIN_ENTRIES)
      await expect(menu(page).getByText(entry, { exact: true })).toHaveCount(0);
  });

  test('a viewer without a full name sees the username and no admin entries', async ({
    page,
    adminApi,
  }) => {
    const user = await adminApi.createUser({
      username: uniqueName('shv'),
      password: 'user-password',
      role: 'viewer',
    });
    await signIn(page, user.username, 'user-password');
    const topBar = page.getByRole('banner');
    await expect(topBar.getByText(user.username, { exact: true })).toBeVisible();
    await expect(topBar.getByText('Viewer', { exact: true })).toBeVisible();
    await expect(menu(page).getByRole('link', { name: 'Profile' })).toBeVisible();
    for (const entry of ADMIN_ENTRIES)
      await expect(menu(page).getByText(entry, { exact: true })).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toContainText('Designed By');
  });

  test("the user menu's Profile Settings opens /profile and Sign out ends the session", async ({
    page,
    adminApi,
  }) => {
    const user = await adminApi.createUser({
      username: uniqueName('shmenu'),
      fullName: 'Menu User',
      password: 'user-password',
      role: 'viewer',
    });
    await signIn(page, user.username, 'user-password');
    const userMenu = page.getByRole('banner').getByText('Menu User');

    await userMenu.click();
    await page.getByRole('link', { name: 'Profile Settings' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();

    await userMenu.click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY)).toBeNull();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('at 375 px', () => {
  test.use({ viewport: NARROW });

  test('the menu is an overlay that locks scrolling and closes on navigation', async ({
    page,
    adminApi,
  }) => {
    const admin = await adminApi.createUser({
      username: uniqueName('shmob'),
      fullName: 'Mo Bile',
      password: 'admin-password',
      role: 'admin',
    });
    await signIn(page, admin.username, 'admin-password');
    const topBar = page.getByRole('banner');
    await expect(topBar.getByText('Mo Bile', { exact: true })).toBeVisible();
    await expect(topBar.getByText('Admin', { exact: true })).toBeVisible();

    const receipts = menu(page).getByRole('link', { name: 'Receipts' });
    await expect(receipts).toBeHidden();
    expect(await bodyOverflow(page)).not.toBe('hidden');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(receipts).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect.poll(() => bodyOverflow(page)).toBe('hidden');
    await expect(menu(page).getByRole('link', { name: 'User-Consignee Management' })).toBeVisible();
    for (const entry of WIDE_ONLY_ENTRIES)
      await expect(menu(page).getByRole('link', { name: entry })).toBeHidden();

    await receipts.click();
    await expect(page).toHaveURL(/\/receipts$/);
    await expect(page.getByRole('heading', { name: 'Receipts' })).toBeVisible();
    await expect(receipts).toBeHidden();
    expect(await bodyOverflow(page)).not.toBe('hidden');
  });

  test('the overlay closes from its backdrop', async ({ page, adminApi }) => {
    const user = await adminApi.createUser({
      username: uniqueName('shback'),
      password: 'user-password',
      role: 'viewer',
    });
    await signIn(page, user.username, 'user-password');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu(page).getByRole('link', { name: 'Profile' })).toBeVisible();
    await page.mouse.click(360, 400);
    await expect(menu(page).getByRole('link', { name: 'Profile' })).toBeHidden();
    await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');
  });
});
