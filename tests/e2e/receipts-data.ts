/**
 * The sandbox data the receipts and dashboard tests look at, read through the portal's own API as the
 * admin (who sees every receipt) and the sandbox's test controls — never from the database.
 */
import type { APIRequestContext } from '@playwright/test';
import type { DashboardStats, Receipt, ReceiptList } from '../../src/shared/receipts';
import { expect } from './fixtures';

export async function receiptList(
  request: APIRequestContext,
  queryString = '',
): Promise<ReceiptList> {
  const response = await request.get(`/api/receipts${queryString}`);
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}

export async function dashboardStats(request: APIRequestContext): Promise<DashboardStats> {
  const response = await request.get('/api/receipts/stats');
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data;
}

/** The first receipt (newest first, 100 a page) that `matches`. */
export async function findReceipt(
  request: APIRequestContext,
  description: string,
  matches: (receipt: Receipt) => boolean,
): Promise<Receipt> {
  for (let page = 1; ; page += 1) {
    const list = await receiptList(request, `?limit=100&page=${page}`);
    const found = list.data.find(matches);
    if (found) return found;
    if (!list.pagination.hasNextPage)
      throw new Error(`The sandbox has no receipt that is ${description}`);
  }
}

/** Tracking numbers the warehouse scanned that are on no receipt (sandbox test control). */
export async function trackingNumbersWithoutReceipt(request: APIRequestContext): Promise<string[]> {
  const response = await request.get('/sandbox/control/samples');
  expect(response.status(), await response.text()).toBe(200);
  const samples: { trackingNumbersWithoutReceipt: string[] } = await response.json();
  expect(samples.trackingNumbersWithoutReceipt.length).toBeGreaterThan(0);
  return samples.trackingNumbersWithoutReceipt;
}
