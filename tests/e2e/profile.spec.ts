import type { Page } from '@playwright/test';
import { expect, openHydrated, signIn, test, type AdminApi, uniqueName } from './fixtures';

const PASSWORD = 'first-password';

async function signInAsNewViewer(page: Page, adminApi: AdminApi, prefix: string) {
  const user = await adminApi.createUser({
    username: uniqueName(prefix),
    fullName: 'Pat Profile',
    password: PASSWORD,
    role: 'viewer',
  });
  await signIn(page, user.username, PASSWORD);
  await openHydrated(page, '/profile');
  return user;
}

async function fillPasswords(
  page: Page,
  current: string,
  next: string,
  confirmation: string,
): Promise<void> {
  await page.getByLabel('Current Password').fill(current);
  await page.getByLabel('New Password', { exact: true }).fill(next);
  await page.getByLabel('Confirm New Password').fill(confirmation);
}

test('shows the read-only username, the role badge and the member-since date', async ({
  page,
  adminApi,
  browser,
}) => {
  const user = await signInAsNewViewer(page, adminApi, 'prof');
  await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
  const username = page.getByLabel('Username');
  await expect(username).toHaveValue(user.username);
  await expect(username).not.toBeEditable();
  await expect(page.getByText('Username cannot be changed')).toBeVisible();
  await expect(page.getByText('Member Since')).toBeVisible();
  await expect(page.getByText(/^\d{2}\/\d{2}\/\d{4}$/)).toBeVisible();

  const viewerBadge = page.getByText('Viewer', { exact: true }).and(page.locator('.badge'));
  await expect(viewerBadge).toBeVisible();

  const admin = await adminApi.createUser({
    username: uniqueName('profadm'),
    password: 'admin-password',
    role: 'admin',
  });
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin.username, 'admin-password');
  await adminPage.goto('/profile');
  const adminBadge = adminPage.getByRole('main').getByText('Admin', { exact: true });
  await expect(adminBadge).toBeVisible();
  const colour = (badge: typeof viewerBadge) =>
    badge.evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(await colour(adminBadge)).not.toBe(await colour(viewerBadge));
  await adminContext.close();
});

test('checks the form with the shared rules before calling the server', async ({
  page,
  adminApi,
}) => {
  await signInAsNewViewer(page, adminApi, 'profval');
  const calls: string[] = [];
  page.on(
    'request',
    (request) => request.url().includes('/api/auth/change-password') && calls.push(request.url()),
  );

  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Current password is required')).toBeVisible();
  await expect(page.getByText('New password must be at least 6 characters')).toBeVisible();

  await fillPasswords(page, PASSWORD, 'new-password', 'other-password');
  await expect(page.getByText('Current password is required')).toHaveCount(0);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();

  await fillPasswords(page, PASSWORD, 'x'.repeat(129), 'x'.repeat(129));
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('New password must not exceed 128 characters')).toBeVisible();
  expect(calls).toHaveLength(0);
});

test('a wrong current password shows the server message', async ({ page, adminApi }) => {
  await signInAsNewViewer(page, adminApi, 'profwrong');
  await fillPasswords(page, 'not-my-password', 'new-password', 'new-password');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Current password is incorrect');
});

test('a successful change is confirmed and the new password signs in', async ({
  page,
  adminApi,
}) => {
  const user = await signInAsNewViewer(page, adminApi, 'profok');
  await fillPasswords(page, PASSWORD, 'second-password', 'second-password');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password changed successfully!')).toBeVisible();
  await expect(page.getByLabel('Current Password')).toHaveValue('');
  await expect(page.getByText('Password changed successfully!')).toBeHidden();

  await page.context().clearCookies();
  await signIn(page, user.username, 'second-password');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts and changes the password', async ({ page, adminApi }) => {
    const user = await signInAsNewViewer(page, adminApi, 'profnojs');
    await fillPasswords(page, PASSWORD, 'new-password', 'different');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText("Passwords don't match")).toBeVisible();

    await fillPasswords(page, PASSWORD, 'third-password', 'third-password');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Password changed successfully!')).toBeVisible();

    await page.context().clearCookies();
    await signIn(page, user.username, 'third-password');
  });
});
