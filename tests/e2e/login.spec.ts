import type { Page } from '@playwright/test';
import { STORED_USER_KEY } from '../../src/shared/constants';
import { expect, openHydrated, signIn, test, uniqueName } from './fixtures';

const RATE_LIMIT_MESSAGE = /^Too many login attempts\. Please wait \d+:\d\d before trying again\.$/;
const WAIT_BUTTON = /^Wait \d+:\d\d$/;

async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

test('shows the product name, the tagline and the footer', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Freight Portal');
  await expect(page.getByText('Sign in to access your freight management dashboard')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText(
    new RegExp(`^Designed By .+ ${new Date().getFullYear()}$`),
  );
});

test('forces the username to lowercase as it is typed', async ({ page }) => {
  await openHydrated(page, '/login');
  const username = page.getByLabel('Username');
  await username.pressSequentially('MiXeD_User');
  await expect(username).toHaveValue('mixed_user');
});

test('shows and hides the password with the toggle', async ({ page }) => {
  await openHydrated(page, '/login');
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('secret-value');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await expect(password).toHaveValue('secret-value');
});

test('validates with the shared rules and clears a field error when that field is edited', async ({
  page,
}) => {
  await openHydrated(page, '/login');
  const calls: string[] = [];
  page.on(
    'request',
    (request) => request.url().includes('/api/auth/login') && calls.push(request.url()),
  );

  await fillLogin(page, 'a!', '123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(
    page.getByText('Username can only contain letters, numbers, hyphens, and underscores'),
  ).toHaveCount(0);

  await page.getByLabel('Username').pressSequentially('b');
  await expect(page.getByText('Username must be at least 3 characters')).toHaveCount(0);
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    page.getByText('Username can only contain letters, numbers, hyphens, and underscores'),
  ).toBeVisible();
  expect(calls).toHaveLength(0);
});

test('a wrong password shows the server message, cleared when a field is edited', async ({
  page,
  adminApi,
}) => {
  const user = await adminApi.createUser({
    username: uniqueName('wrongpw'),
    password: 'right-password',
    role: 'viewer',
  });
  await openHydrated(page, '/login');
  await fillLogin(page, user.username, 'wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Password', { exact: true }).pressSequentially('x');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a viewer signs in, reaches the dashboard and is kept in local storage', async ({
  page,
  adminApi,
}) => {
  const user = await adminApi.createUser({
    username: uniqueName('viewer'),
    password: 'viewer-password',
    role: 'viewer',
  });
  await signIn(page, user.username.toUpperCase(), 'viewer-password');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const stored = await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY);
  expect(JSON.parse(stored ?? '{}')).toMatchObject({ username: user.username, role: 'viewer' });
});

/** The answer to the nth wrong password of LOGIN_MAX_ATTEMPTS (5) in LOGIN_WINDOW_SECONDS (15 minutes): the 4th warns before the lock. */
const wrongPasswordText = (attempt: number) =>
  attempt === 4
    ? 'Invalid username or password. 1 attempt left: another wrong password pauses sign-in for up to 15 minutes.'
    : 'Invalid username or password';

test('after five failures the sixth answer is 429 and the form counts down, and the fourth warns of it', async ({
  page,
}) => {
  const username = uniqueName('locked');
  await openHydrated(page, '/login');
  await fillLogin(page, username, 'wrong-password');
  const signInButton = page.getByRole('button', { name: 'Sign in' });
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const answer = page.waitForResponse('**/api/auth/login');
    await signInButton.click();
    expect((await answer).status()).toBe(401);
    await expect(page.getByRole('alert')).toHaveText(wrongPasswordText(attempt));
  }
  const answer = page.waitForResponse('**/api/auth/login');
  await signInButton.click();
  const response = await answer;
  expect(response.status()).toBe(429);
  expect((await response.json()).retryAfter).toBeGreaterThan(0);

  const waitButton = page.getByRole('button', { name: WAIT_BUTTON });
  await expect(waitButton).toBeDisabled();
  await expect(page.getByRole('alert')).toHaveText(RATE_LIMIT_MESSAGE);
  const shown = await waitButton.textContent();
  await expect(waitButton).not.toHaveText(shown!);
  await expect(waitButton).toHaveText(WAIT_BUTTON);
});

test('a 429 without retryAfter shows the generic message, and an answer without a user is a failure', async ({
  page,
}) => {
  await openHydrated(page, '/login');
  await fillLogin(page, 'someone', 'some-password');

  await page.route('**/api/auth/login', (route) =>
    route.fulfill({
      status: 429,
      json: { success: false, message: 'Slow down', errorType: 'RATE_LIMITED' },
    }),
  );
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Too many login attempts. Please try again later.',
  );
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();

  await page.unroute('**/api/auth/login');
  await page.route('**/api/auth/login', (route) =>
    route.fulfill({ status: 200, json: { success: true, data: null } }),
  );
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Login failed');
  await expect(page).toHaveURL(/\/login$/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts, shows the exact messages and signs in', async ({ page, adminApi }) => {
    const user = await adminApi.createUser({
      username: uniqueName('nojs'),
      password: 'nojs-password',
      role: 'viewer',
    });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Show password' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

    await fillLogin(page, user.username, 'wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
    await expect(page.getByLabel('Username')).toHaveValue(user.username);

    await fillLogin(page, user.username.toUpperCase(), 'nojs-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });

  test('the rate limit locks the plain form too', async ({ page }) => {
    const username = uniqueName('nojslock');
    await page.goto('/login');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await fillLogin(page, username, 'wrong-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toHaveText(wrongPasswordText(attempt));
    }
    await fillLogin(page, username, 'wrong-password');
    const answer = page.waitForResponse(
      (response) => response.url().endsWith('/login') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await answer).status()).toBe(429);
    await expect(page.getByRole('button', { name: WAIT_BUTTON })).toBeDisabled();
    await expect(page.getByRole('alert')).toHaveText(RATE_LIMIT_MESSAGE);
  });
});
