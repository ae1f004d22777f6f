/**
 * The dashboard: the figures of /api/receipts/stats, written as src/components/dashboard/figures.ts says, rendered on the
 * server with no React, and refetched every 5 minutes.
 */
import type { Page } from '@playwright/test';
import { FIGURE_FORMATS, receiptCount } from '../../src/components/dashboard/figures';
import { DASHBOARD_REFETCH_MS } from '../../src/shared/constants';
import type { DashboardStats } from '../../src/shared/receipts';
import { expect, signInAsAdmin, test } from './fixtures';
import { dashboardStats } from './receipts-data';
import { stallLimit } from '../support/test-pace';

const CARDS: [
  label: string,
  figure: keyof DashboardStats,
  format: keyof typeof FIGURE_FORMATS,
  hint?: string,
][] = [
  ['Total Receipts', 'totalReceipts', 'count'],
  ['Total Weight (lbs)', 'totalWeight', 'weight'],
  ['Total Volume (ft³)', 'totalVolume', 'volume'],
  ['Total Pieces', 'totalPieces', 'count'],
  ['This Month', 'receiptsThisMonth', 'count', 'receipts'],
  ['This Week', 'receiptsThisWeek', 'count', 'receipts'],
  ['Average Weight', 'averageWeight', 'weight', 'per receipt'],
  ['Average Volume', 'averageVolume', 'volume', 'per receipt'],
];

/** What the page shows: each card's value and the two ranked lists, rows as 'rank name N receipts'. */
async function shownDashboard(page: Page) {
  const figures: Record<string, string | null> = {};
  for (const [label] of CARDS) {
    figures[label] = await page
      .getByRole('region', { name: label, exact: true })
      .getByRole('paragraph')
      .first()
      .textContent();
  }
  const ranking = async (title: string) =>
    (await page.getByRole('region', { name: title }).getByRole('listitem').allInnerTexts()).map(
      (text) => text.replace(/\s+/g, ' ').trim(),
    );
  return {
    figures,
    shippers: await ranking('Top Shippers'),
    consignees: await ranking('Top Consignees'),
  };
}

function expectedDashboard(stats: DashboardStats) {
  const figures: Record<string, string> = {};
  for (const [label, figure, format] of CARDS)
    figures[label] = FIGURE_FORMATS[format](stats[figure] as number);
  const ranking = (rows: DashboardStats['topShippers']) =>
    rows.map((row, index) => `${index + 1} ${row.name} ${receiptCount(row.count)}`);
  return {
    figures,
    shippers: ranking(stats.topShippers),
    consignees: ranking(stats.topConsignees),
  };
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('shows the figures and rankings of the statistics API, formatted, without React', async ({
  page,
}) => {
  // The sandbox moves on between syncs: compare one answer with one rendering, again if they straddled a sync.
  await expect(async () => {
    const stats = await dashboardStats(page.request);
    await page.goto('/dashboard');
    expect(await shownDashboard(page)).toEqual(expectedDashboard(stats));
  }).toPass({ timeout: stallLimit(40_000) });

  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(
    page.getByText('Overview of your freight receipt data and statistics'),
  ).toBeVisible();
  for (const [label, , , hint] of CARDS) {
    if (hint)
      await expect(
        page.getByRole('region', { name: label, exact: true }).getByText(hint, { exact: true }),
      ).toBeVisible();
  }
  await expect(
    page.getByRole('region', { name: 'Total Weight (lbs)' }).getByRole('paragraph'),
  ).toHaveText(/^[\d,]+\.\d{3} lbs$/);
  await expect(
    page.getByRole('region', { name: 'Average Volume' }).getByRole('paragraph').first(),
  ).toHaveText(/^[\d,]+\.\d{3} ft³$/);
  await expect(
    page.getByRole('region', { name: 'Total Receipts' }).getByRole('paragraph'),
  ).toHaveText(/^[\d,]+$/);
  await expect(
    page.getByRole('region', { name: 'Top Shippers' }).getByRole('listitem'),
  ).not.toHaveCount(0);
  await expect(page.getByText('No statistics data available.')).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('astro-island')).toHaveCount(0);
});

test('refetches the statistics every 5 minutes and shows them in place', async ({ page }) => {
  // Time stands still but for runFor: the page's own load, however slow, moves no timer on.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Total Receipts' })).toBeVisible();

  const statsCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/receipts/stats')) statsCalls.push(request.url());
  });
  await page.clock.runFor(DASHBOARD_REFETCH_MS - 1_000);
  expect(statsCalls).toHaveLength(0);

  const refetch = page.waitForResponse((response) =>
    response.url().endsWith('/api/receipts/stats'),
  );
  await page.clock.runFor(1_000);
  const answer = await refetch;
  expect(answer.status()).toBe(200);
  const stats: DashboardStats = (await answer.json()).data;
  await expect.poll(() => shownDashboard(page)).toEqual(expectedDashboard(stats));
  await expect(page.getByRole('status', { name: 'Loading statistics' })).toBeHidden();
});
