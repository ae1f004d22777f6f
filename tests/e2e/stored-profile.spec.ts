/**
 * The profile the sign-in form keeps in localStorage (id, username, full name, e-mail, role) lives no
 * longer than the session: any page rendered without a session removes it.
 */
import type { Page } from '@playwright/test';
import { expect, signIn, test, uniqueName } from './fixtures';

const storedProfile = (page: Page) => page.evaluate(() => localStorage.getItem('user'));

test('a session ended on the server leaves no profile behind: the receipt link that leads to sign-in removes it', async ({
  page,
  adminApi,
}) => {
  const username = uniqueName('profile');
  const user = await adminApi.createUser({
    username,
    password: 'profile-password-1',
    fullName: 'Profile Keeper',
    email: `${username}@example.com`,
    role: 'viewer',
  });
  await signIn(page, username, 'profile-password-1');
  expect(JSON.parse((await storedProfile(page))!)).toMatchObject({
    id: user.id,
    username,
    fullName: 'Profile Keeper',
  });
  // Signed-in pages keep it.
  await page.goto('/profile');
  expect(await storedProfile(page)).not.toBeNull();

  // The admin sets a new password: every session of the user ends, on the server only.
  await adminApi.resetPassword(user.id, 'profile-password-2');

  await page.goto('/receipts/1');
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedProfile(page)).toBeNull();
});

test('a page rendered without a session, opened with a profile left from before, removes it', async ({
  page,
}) => {
  await page.goto('/login');
  await page.evaluate(() =>
    localStorage.setItem('user', JSON.stringify({ id: 1, username: 'someone', role: 'viewer' })),
  );
  await page.goto('/email/unsubscribe/not-a-token');
  expect(await storedProfile(page)).toBeNull();
});
