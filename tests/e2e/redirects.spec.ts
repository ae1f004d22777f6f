import type { Response } from '@playwright/test';
import { ADMIN, expect, signIn, test, uniqueName } from './fixtures';

/** Paths the browser went through to get the answer, first to last. */
function redirectChain(response: Response | null): string[] {
  const chain: string[] = [];
  for (let request = response?.request() ?? null; request; request = request.redirectedFrom()) {
    chain.unshift(new URL(request.url()).pathname);
  }
  return chain;
}

test('signed out, every signed-in page sends the visitor to /login', async ({ page }) => {
  for (const path of [
    '/dashboard',
    '/profile',
    '/receipts',
    '/locations',
    '/admin/users',
    '/admin/logo',
  ]) {
    await page.goto(path);
    await expect(page, `visiting ${path}`).toHaveURL(/\/login$/);
  }
  expect(redirectChain(await page.goto('/'))).toEqual(['/', '/login']);
});

test('signed in, /login and / lead to the dashboard and an unknown path goes through /', async ({
  page,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password);
  expect(redirectChain(await page.goto('/login'))).toEqual(['/login', '/dashboard']);
  expect(redirectChain(await page.goto('/'))).toEqual(['/', '/dashboard']);
  expect(redirectChain(await page.goto('/no/such/page'))).toEqual([
    '/no/such/page',
    '/',
    '/dashboard',
  ]);
  // Told why, once: the next visit to the dashboard says nothing.
  await expect(
    page.getByRole('status').filter({ hasText: "That page doesn't exist." }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText("That page doesn't exist.")).toHaveCount(0);
});

test('signed out, an unknown path goes through / to /login', async ({ page }) => {
  expect(redirectChain(await page.goto('/no/such/page'))).toEqual(['/no/such/page', '/', '/login']);
});

test('an admin opens the admin pages', async ({ page, adminApi }) => {
  const admin = await adminApi.createUser({
    username: uniqueName('admin'),
    password: 'admin-password',
    role: 'admin',
  });
  await signIn(page, admin.username, 'admin-password');
  for (const path of [
    '/admin/user-consignees',
    '/admin/logo',
    '/admin/background',
    '/admin/tokens',
  ]) {
    await page.goto(path);
    await expect(page, `visiting ${path}`).toHaveURL(new RegExp(`${path}$`));
  }
});

for (const role of ['viewer', 'admin-viewer'] as const) {
  test(`${role} visiting admin pages is sent to the dashboard`, async ({ page, adminApi }) => {
    const user = await adminApi.createUser({
      username: uniqueName(role.replace('-', '')),
      password: 'user-password',
      role,
    });
    await signIn(page, user.username, 'user-password');
    for (const path of ['/admin/users', '/admin/logo', '/admin/tokens']) {
      await page.goto(path);
      await expect(page, `visiting ${path}`).toHaveURL(/\/dashboard$/);
      await expect(
        page.getByRole('status').filter({ hasText: 'That page is for administrators.' }),
      ).toBeVisible();
    }
  });
}
