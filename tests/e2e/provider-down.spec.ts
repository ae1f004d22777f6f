/**
 * The dashboard and the receipts screen when the logistics provider has never answered (EXTERNAL_API_ERROR):
 * the 'Server is Busy' panels, whose Try Again asks again — retried 3 times (MAX_RETRIES, src/stores/query-cache.ts).
 */
import type { Page } from '@playwright/test';
import { serverBusyText } from '../../src/shared/messages';
import { PROVIDER_DOWN_URL } from '../support/e2e-env';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';
import {} from './receipts-data';

test.use({ baseURL: PROVIDER_DOWN_URL });

/** The 'Server is Busy' panel; SERVER_BUSY_TEXT is its advice with the 30 minutes to wait. */
const SERVER_BUSY_TEXT = serverBusyText();
const busyPanel = (page: Page) =>
  page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Server is Busy' }) });

/** Counts the calls to `path` from now on. */
function countCalls(page: Page, path: string): () => number {
  let calls = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) calls += 1;
  });
  return () => calls;
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, PROVIDER_DOWN_URL);
});

test('the dashboard shows Server is Busy; Try Again asks again, with three retries, and stays signed in', async ({
  page,
}) => {
  expect(SERVER_BUSY_TEXT).toBe(
    'The server is busy right now. If this message is still shown after 30 minutes, please contact the company.',
  );
  await page.goto('/dashboard');
  await expect(busyPanel(page)).toContainText(SERVER_BUSY_TEXT);
  await expect(page.getByRole('region', { name: 'Total Receipts' })).toBeHidden();

  const calls = countCalls(page, '/api/receipts/stats');
  const tryAgain = busyPanel(page).getByRole('button', { name: 'Try Again' });
  await tryAgain.click();
  await expect(page.getByRole('status', { name: 'Loading statistics' })).toBeVisible();
  await expect(tryAgain).toBeDisabled();
  // 1 + 2 + 4 s between the four attempts.
  await expect(page.getByRole('status', { name: 'Loading statistics' })).toBeHidden();
  expect(calls()).toBe(4);
  await expect(busyPanel(page)).toBeVisible();
  await expect(tryAgain).toBeEnabled();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the receipts list shows the retry panel; Try Again asks again with three retries', async ({
  page,
}) => {
  await openHydrated(page, '/receipts');
  const panel = page.getByRole('region', { name: 'Receipts' }).getByRole('alert');
  await expect(panel).toContainText('Server is Busy');
  await expect(panel).toContainText(SERVER_BUSY_TEXT);

  const calls = countCalls(page, '/api/receipts');
  await panel.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('status', { name: 'Loading receipts' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading receipts' })).toBeHidden();
  expect(calls()).toBe(4);
  await expect(panel.getByRole('button', { name: 'Try Again' })).toBeVisible();
  await expect(page).toHaveURL(/\/receipts$/);
});
