import { test } from '@playwright/test';
import { E2E_URL } from '../support/e2e-env';
import { ADMIN, adminRequest, expect, openHydrated } from './fixtures';

test('a receipt link opened while signed out leads, after signing in, to that receipt rather than the dashboard', async ({
  page,
  playwright,
}) => {
  const list = await (await adminRequest(playwright, E2E_URL)).get('/api/receipts?limit=1');
  const receiptId = (await list.json()).data[0].id as number;

  await page.goto(`/receipts/${receiptId}`);
  await expect(page).toHaveURL(/\/login$/);
  await openHydrated(page, '/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${receiptId}$`));

  // Once used, the way back is forgotten: the next sign-in goes to the dashboard again.
  await page.getByRole('banner').getByText('Administrator').click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await openHydrated(page, '/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
