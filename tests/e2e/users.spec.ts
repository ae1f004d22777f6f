/**
 * User Management: the admin's user screens at /admin/users and its three role views.
 * Other test files use the same portal at the same time, so every test creates its own users and
 * never counts rows.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { E2E_URL } from '../support/e2e-env';
import { ADMIN, expect, openHydrated, signInAsAdmin, test, uniqueName } from './fixtures';

const PASSWORD = 'first-pass-1';

/** Signs a browser context in through the login API (the call the login form makes). */
function signInThroughApi(context: BrowserContext, username: string, password: string) {
  return context.request.post('/api/auth/login', {
    data: { username, password },
    headers: { Origin: E2E_URL },
  });
}

/** The table row of one user, found by its edit button so that no username matches inside another. */
function userRow(page: Page, username: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Edit ${username}`, exact: true }) });
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('creates a user once the form accepts it, after refusing bad input with the exact messages', async ({
  page,
}) => {
  const username = uniqueName('create');
  await openHydrated(page, '/admin/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();

  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog.getByLabel('Role')).toHaveValue('viewer');
  await expect(dialog.getByLabel('Role').getByRole('option')).toHaveText([
    'admin',
    'admin viewer',
    'viewer',
  ]);
  await expect(dialog.getByLabel('Account is active')).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByText('Username is required')).toBeVisible();
  await expect(dialog.getByText('Password is required')).toBeVisible();

  await dialog.getByLabel('Username').fill('AB');
  await expect(dialog.getByLabel('Username')).toHaveValue('ab');
  await dialog.getByLabel('Email').fill('not-an-address');
  await dialog.getByLabel('Password').fill('12345');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(dialog.getByText('Email is invalid')).toBeVisible();
  await expect(dialog.getByText('Password must be at least 6 characters')).toBeVisible();

  await dialog.getByLabel('Username').fill('bad name!');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(
    dialog.getByText(
      'Username must contain only alphanumeric characters, hyphens, and underscores',
    ),
  ).toBeVisible();

  await dialog.getByLabel('Username').fill(username.toUpperCase());
  await expect(dialog.getByLabel('Username')).toHaveValue(username);
  await dialog.getByLabel('Full Name').fill('Created Person');
  await dialog.getByLabel('Email').fill(`${username}@example.com`);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByLabel('Role').selectOption({ label: 'admin viewer' });
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog).toBeHidden();

  const cells = userRow(page, username).getByRole('cell');
  await expect(cells.nth(0)).toContainText('Created Person');
  await expect(cells.nth(0)).toContainText(`${username}@example.com`);
  await expect(cells.nth(1)).toHaveText('admin viewer');
  await expect(cells.nth(2)).toHaveText('Active');
  await expect(cells.nth(3)).toHaveText('Never');
  await expect(cells.nth(4)).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);

  await openHydrated(page, '/admin/users/admin-viewers');
  await expect(userRow(page, username)).toBeVisible();
  await openHydrated(page, '/admin/users/viewers');
  await expect(page.getByRole('heading', { name: 'Viewer Management' })).toBeVisible();
  await expect(userRow(page, username)).toHaveCount(0);
});

test('shows the server message for a username that is taken', async ({ page, adminApi }) => {
  const username = uniqueName('taken');
  await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });

  await openHydrated(page, '/admin/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Username already exists');
  await expect(dialog).toBeVisible();
});

test('edits the full name and role of a user', async ({ page, adminApi }) => {
  const username = uniqueName('edit');
  await adminApi.createUser({
    username,
    password: PASSWORD,
    fullName: 'Before Edit',
    role: 'viewer',
  });

  await openHydrated(page, '/admin/users/viewers');
  await expect(userRow(page, username)).toContainText('Before Edit');
  await page.getByRole('button', { name: `Edit ${username}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(dialog.getByLabel('Username')).toHaveValue(username);
  await expect(dialog.getByLabel('Password')).toHaveCount(0);
  await expect(dialog.getByLabel('Account is active')).toBeChecked();
  await dialog.getByLabel('Full Name').fill('After Edit');
  await dialog.getByLabel('Role').selectOption({ label: 'admin viewer' });
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  // Now an admin viewer, the user leaves the viewer list.
  await expect(userRow(page, username)).toHaveCount(0);

  await openHydrated(page, '/admin/users/admin-viewers');
  await expect(userRow(page, username)).toContainText('After Edit');
  await expect(userRow(page, username)).toContainText('admin viewer');
});

test('a deactivated user is signed out and cannot sign in again', async ({
  page,
  adminApi,
  browser,
}) => {
  const username = uniqueName('inactive');
  await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
  const userContext = await browser.newContext();
  expect((await signInThroughApi(userContext, username, PASSWORD)).status()).toBe(200);
  const userPage = await userContext.newPage();
  await userPage.goto('/dashboard');
  await expect(userPage).toHaveURL(/\/dashboard$/);

  await openHydrated(page, '/admin/users');
  await page.getByRole('button', { name: `Edit ${username}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await dialog.getByLabel('Account is active').uncheck();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(userRow(page, username)).toContainText('Inactive');

  await userPage.reload();
  await expect(userPage).toHaveURL(/\/login$/);
  const attempt = await signInThroughApi(userContext, username, PASSWORD);
  expect(attempt.status()).toBe(401);
  expect((await attempt.json()).message).toBe('Invalid username or password');
  await userContext.close();
});

test('resets a password: the new one signs in, the old one no longer does', async ({
  page,
  adminApi,
  browser,
}) => {
  const username = uniqueName('reset');
  const newPassword = 'second-pass-2';
  await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });

  await openHydrated(page, '/admin/users');
  await page.getByRole('button', { name: `Reset password for ${username}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await dialog.getByLabel('New Password').fill('12345');
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog.getByText('Password must be at least 6 characters long')).toBeVisible();
  await dialog.getByLabel('New Password').fill(newPassword);
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Password reset successfully')).toBeVisible();

  const userContext = await browser.newContext();
  expect((await signInThroughApi(userContext, username, PASSWORD)).status()).toBe(401);
  expect((await signInThroughApi(userContext, username, newPassword)).status()).toBe(200);
  await userContext.close();
});

test('deletes a user after a confirmation that the deletion is permanent', async ({
  page,
  adminApi,
  browser,
}) => {
  const username = uniqueName('delete');
  await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });

  await openHydrated(page, '/admin/users');
  await page.getByRole('button', { name: `Delete ${username}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete User' });
  await expect(dialog).toContainText(`Are you sure you want to delete ${username}?`);
  await expect(dialog).toContainText(
    'permanently deletes the user account and removes all associated data',
  );
  await dialog.getByRole('button', { name: 'Delete User' }).click();
  await expect(dialog).toBeHidden();
  await expect(userRow(page, username)).toHaveCount(0);

  const userContext = await browser.newContext();
  expect((await signInThroughApi(userContext, username, PASSWORD)).status()).toBe(401);
  await userContext.close();
});

test('each role view is titled after its role, lists only that role, and adds users as viewers by default', async ({
  page,
  adminApi,
}) => {
  const viewer = uniqueName('roleviewer');
  const adminViewer = uniqueName('roleadminv');
  await adminApi.createUser({ username: viewer, password: PASSWORD, role: 'viewer' });
  await adminApi.createUser({ username: adminViewer, password: PASSWORD, role: 'admin-viewer' });

  const views = [
    {
      path: '/admin/users',
      title: 'User Management',
      listed: [ADMIN.username, adminViewer, viewer],
    },
    { path: '/admin/users/admins', title: 'Admin Management', listed: [ADMIN.username] },
    { path: '/admin/users/admin-viewers', title: 'Admin Viewer Management', listed: [adminViewer] },
    { path: '/admin/users/viewers', title: 'Viewer Management', listed: [viewer] },
  ];
  for (const view of views) {
    await openHydrated(page, view.path);
    await expect(page).toHaveTitle(new RegExp(`^${view.title}`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(view.title);
    for (const username of [ADMIN.username, adminViewer, viewer]) {
      await expect(userRow(page, username)).toHaveCount(view.listed.includes(username) ? 1 : 0);
    }
    await page.getByRole('button', { name: 'Add User' }).click();
    await expect(page.getByRole('dialog', { name: 'Add User' }).getByLabel('Role')).toHaveValue(
      'viewer',
    );
  }
});

test("shows 'Never' until the user's first sign-in, then the date", async ({
  page,
  adminApi,
  browser,
}) => {
  const username = uniqueName('lastlogin');
  await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
  const lastLogin = userRow(page, username).getByRole('cell').nth(3);

  await openHydrated(page, '/admin/users');
  await expect(lastLogin).toHaveText('Never');

  const userContext = await browser.newContext();
  expect((await signInThroughApi(userContext, username, PASSWORD)).status()).toBe(200);
  await userContext.close();
  await page.reload();
  await expect(lastLogin).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
});

test('a failed reload offers Try again, and an empty list shows the empty state', async ({
  page,
  adminApi,
}) => {
  const username = uniqueName('reload');
  await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
  // Only the list call is answered by the test; the reset itself reaches the portal.
  await page.route('**/api/auth/users', (route) =>
    route.fulfill({
      status: 500,
      json: { success: false, message: 'Database is unavailable', errorType: 'INTERNAL_ERROR' },
    }),
  );

  await openHydrated(page, '/admin/users/viewers');
  await page.getByRole('button', { name: `Reset password for ${username}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await dialog.getByLabel('New Password').fill('second-pass-2');
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Error loading users' })).toBeVisible();
  await expect(page.getByText('Database is unavailable')).toBeVisible();

  await page.unroute('**/api/auth/users');
  await page.route('**/api/auth/users', (route) =>
    route.fulfill({ json: { success: true, data: [] } }),
  );
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'No users' })).toBeVisible();
  await expect(page.getByText('Get started by creating a new user.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Error loading users' })).toHaveCount(0);
});

test('the admin is not offered the deletion of their own account, and is told why', async ({
  page,
}) => {
  await openHydrated(page, '/admin/users');
  const ownDelete = page.getByRole('button', { name: `Delete ${ADMIN.username}`, exact: true });
  await expect(ownDelete).toBeDisabled();
  await expect(ownDelete).toHaveAttribute('title', 'You cannot delete your own account');
  await expect(userRow(page, ADMIN.username)).toBeVisible();
});
