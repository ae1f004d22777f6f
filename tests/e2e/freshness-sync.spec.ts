/**
 * Freshness: the dashboard and the receipts screen say how fresh their data is ("Updated 3
 * minutes ago", the exact time on hover and focus, a warning once syncs have stopped), and an admin
 * syncs now from Token Management.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { formatDateTime } from '../../src/shared/format';
import { FRESHNESS_URL } from '../support/e2e-env';
import { stallLimit } from '../support/test-pace';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';
import {} from './receipts-data';

const STALE_TEXT = 'The data may be out of date.';

async function lastSyncedAt(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/receipts/stats');
  expect(response.status()).toBe(200);
  return (await response.json()).meta.lastSyncedAt;
}

/** React and the page's own scripts report a hydration mismatch or a failure on the console. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function expectExactTimeOnFocusAndHover(
  page: Page,
  updated: Locator,
  exact: string | RegExp,
): Promise<void> {
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toBeHidden();
  await updated.focus();
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toHaveText(exact);
  await expect(updated).toHaveAccessibleDescription(exact);
  await page.keyboard.press('Escape');
  await expect(tooltip).toBeHidden();
  await updated.hover();
  await expect(tooltip).toBeVisible();
}

for (const path of ['/dashboard', '/receipts']) {
  test.describe(`${path} in English`, () => {
    test.beforeEach(async ({ page }) => {
      await signInAsAdmin(page);
    });

    test('says when the data was last updated, with the exact time on focus and hover, rendered alike by server and browser', async ({
      page,
    }) => {
      const errors = consoleErrors(page);
      const syncedAt = await lastSyncedAt(page.request);
      await openHydrated(page, path);
      const updated = page.getByText(/^Updated (just now|\d+ minutes? ago|1 hour ago)$/);
      await expect(updated).toBeVisible();
      await expectExactTimeOnFocusAndHover(
        page,
        updated,
        `Last synchronized on ${formatDateTime(syncedAt)}`,
      );
      await expect(page.getByText(STALE_TEXT)).toBeHidden();
      expect(errors).toEqual([]);
    });
  });

  test.describe(`${path} in Dutch`, () => {
    test.use({ locale: 'nl-NL' });

    test.beforeEach(async ({ page }) => {
      await signInAsAdmin(page);
    });

    test('says "Bijgewerkt … geleden" with the exact Dutch date and time on focus and hover', async ({
      page,
    }) => {
      const errors = consoleErrors(page);
      await openHydrated(page, path);
      const updated = page.getByText(
        /^(Zojuist bijgewerkt|Bijgewerkt \d+ (minuut|minuten) geleden|Bijgewerkt 1 uur geleden)$/,
      );
      await expect(updated).toBeVisible();
      await expectExactTimeOnFocusAndHover(
        page,
        updated,
        /^Laatst gesynchroniseerd op \d{2}-\d{2}-\d{4},? \d{2}:\d{2}$/,
      );
      await expect(page.getByText('De gegevens zijn mogelijk niet actueel.')).toBeHidden();
      expect(errors).toEqual([]);
    });
  });
}

// A portal of their own that syncs every 2 seconds: three missed syncs (6 seconds) make its data stale.
test.describe.serial('on a portal whose provider goes down', () => {
  // No offline worker: these tests hold the page's calls with page.route, which Playwright's docs say
  // to use with service workers blocked (a worker taking control part-way may keep a call from it).
  // The offline tests cover the worker.
  test.use({ baseURL: FRESHNESS_URL, serviceWorkers: 'block' });

  const sandboxControl = async (request: APIRequestContext, action: 'outage' | 'recover') => {
    const response = await request.post(`/sandbox/control/${action}`, {
      headers: { Origin: FRESHNESS_URL },
    });
    expect(response.status()).toBe(200);
  };

  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page, FRESHNESS_URL);
  });

  test('when syncs stop, the open receipts screen and the dashboard warn in words and colour; once they resume, the warning goes', async ({
    browser,
    page,
  }) => {
    await openHydrated(page, '/receipts');
    await expect(page.getByText('Updated just now')).toBeVisible();
    await expect(page.getByText(STALE_TEXT)).toBeHidden();

    await sandboxControl(page.request, 'outage');
    try {
      // The open page counts on by itself: no reload.
      const warning = page.getByText(STALE_TEXT);
      await expect(warning).toBeVisible({ timeout: stallLimit(40_000) });
      await expect(warning.locator('..')).toHaveClass(/border-warning/);

      // Rendered so on the server, before any script. The open page counts from the sync it was served
      // with; a sync that ended after that, just before the outage, makes the server's turn come up to
      // one sync interval later: the page is asked again until it has.
      const withoutScripts = await browser.newContext({
        javaScriptEnabled: false,
        storageState: await page.context().storageState(),
      });
      const plainPage = await withoutScripts.newPage();
      await expect(async () => {
        await plainPage.goto(`${FRESHNESS_URL}/dashboard`);
        await expect(plainPage.getByText(STALE_TEXT)).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: stallLimit(40_000) });
      await withoutScripts.close();

      await page.goto('/dashboard');
      await expect(page.getByText(STALE_TEXT)).toBeVisible();
      await expect(page.getByText(STALE_TEXT).locator('..')).toHaveClass(/border-warning/);
    } finally {
      await sandboxControl(page.request, 'recover');
    }
    await expect(page.getByText(STALE_TEXT)).toBeHidden({ timeout: stallLimit(40_000) });
    await expect(page.getByText('Updated just now')).toBeVisible();
  });

  test('an admin syncs now: the button waits while it runs, then the result is announced and shown; during an outage, the error', async ({
    page,
  }) => {
    await openHydrated(page, '/admin/tokens');
    const card = page.getByRole('region', { name: 'Receipt sync', exact: true });
    const button = card.getByRole('button', { name: 'Sync now' });
    const announcement = card.getByRole('status');

    // The request is held on its way until the running state has been seen (a fixed pause was at times
    // shorter than the checks on a loaded machine).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/sync', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    const answered = page.waitForResponse(
      (response) => response.url().endsWith('/api/sync') && response.request().method() === 'POST',
    );
    await button.click();
    await expect(button).toBeDisabled();
    await expect(announcement).toHaveText('Syncing…');
    release();
    const { data } = await (await answered).json();
    await expect(announcement).toHaveText(
      `Sync finished. Written: ${data.written}, removed: ${data.deleted}.`,
    );
    await expect(button).toBeEnabled();
    await expect(card.locator('dt:text-is("Result") + dd')).toHaveText(
      `Written: ${data.written}, removed: ${data.deleted}`,
    );
    await expect(card.locator('dt:text-is("Last successful sync") + dd')).toHaveText(
      formatDateTime(data.finishedAt),
    );
    await page.unroute('**/api/sync');

    await sandboxControl(page.request, 'outage');
    try {
      // A scheduled sync that began before the outage may still end well: try until one fails.
      await expect(async () => {
        await button.click();
        await expect(announcement).toHaveText(
          'Sync failed: The sync could not be completed: the logistics provider is not available right now. Please try again later.',
          { timeout: stallLimit(2_000) },
        );
      }).toPass({ timeout: stallLimit(30_000) });
      await expect(card.locator('dt:text-is("Last attempt failed") + dd')).toContainText(
        'the logistics provider is not available right now',
      );
    } finally {
      await sandboxControl(page.request, 'recover');
    }
  });

  test.describe('in Dutch', () => {
    test.use({ locale: 'nl-NL' });

    test('"Nu synchroniseren" announces the result in Dutch', async ({ page }) => {
      await openHydrated(page, '/admin/tokens');
      const card = page.getByRole('region', {
        name: 'Synchronisatie van ontvangstbewijzen',
        exact: true,
      });
      await card.getByRole('button', { name: 'Nu synchroniseren' }).click();
      await expect(card.getByRole('status')).toHaveText(
        /^Synchronisatie voltooid\. Bijgewerkt: \d+, verwijderd: \d+\.$/,
      );
      await expect(card.locator('dt:text-is("Resultaat") + dd')).toHaveText(
        /^Bijgewerkt: \d+, verwijderd: \d+$/,
      );
    });
  });
});
