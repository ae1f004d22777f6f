/**
 * Token Management with PROVIDER=magaya: the admin enters the Magaya API user on the "Magaya
 * connection" card, a wrong password is said in words, the right one connects, and the receipts come.
 * The Magaya is another portal's sandbox answering as Magaya.
 */
import type { Page } from '@playwright/test';
import { MAGAYA_URL } from '../support/e2e-env';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';

test.use({ baseURL: MAGAYA_URL });
test.describe.configure({ mode: 'serial' });

const card = (page: Page) => page.getByRole('region', { name: 'Magaya connection', exact: true });
const fact = (page: Page, label: string) => card(page).locator(`dt:text-is("${label}") + dd`);

async function enterUser(page: Page, password: string) {
  await page.getByRole('button', { name: /^(Set user|Change user)$/ }).click();
  const form = page.getByRole('region', { name: 'API user', exact: true });
  await form.getByLabel('User name').fill('portal');
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The Magaya API user is saved.' }),
  ).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, MAGAYA_URL);
  await openHydrated(page, '/admin/tokens');
  await expect(page.getByRole('heading', { name: 'Token Management', level: 1 })).toBeVisible();
});

test('the Magaya connection card stands in place of the OAuth2 cards', async ({ page }) => {
  await expect(card(page)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Access Token' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect with OAuth2' })).toHaveCount(0);
  await expect(fact(page, 'Endpoint')).toContainText('/sandbox/Invoke?Handler=CSSoapService');
});

test('a wrong password is said in words, the right one connects, and the receipts come with the next sync', async ({
  page,
}) => {
  await enterUser(page, 'not-the-password');
  await card(page).getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Magaya refused the user name or password.' }),
  ).toBeVisible();
  await expect(fact(page, 'Last session')).toContainText(
    'Magaya refused the user name or password.',
  );

  await enterUser(page, 'sandbox');
  await card(page).getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Magaya accepted the user' }),
  ).toBeVisible();
  await expect(fact(page, 'Last session')).toContainText('Succeeded');

  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sync finished.' })).toBeVisible();
  const receipts = await (await page.request.get('/api/receipts?limit=5')).json();
  expect(receipts.data.length).toBeGreaterThan(0);
});
