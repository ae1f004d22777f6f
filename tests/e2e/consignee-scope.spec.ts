/**
 * What an assignment means to a customer: a viewer sees the receipts and statistics of the consignees
 * assigned to them, and nothing until one is. Arranged through the admin's real calls.
 */
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { adminRequest, expect, openHydrated, signIn, test, uniqueName } from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL });

const PASSWORD = 'scope-pass-1';

test('a viewer sees nothing before an assignment, then exactly the assigned consignee on the dashboard and the receipts list', async ({
  page,
  adminApi,
  playwright,
}) => {
  const admin = await adminRequest(playwright, ADMIN_AREA_URL);
  expect((await admin.post('/api/consignees/import')).status()).toBe(200);
  // The consignee of the newest receipt: one that surely has receipts.
  const newest = (await (await admin.get('/api/receipts?limit=1')).json()).data[0];
  const consignees: Array<{ id: number; name: string }> = (
    await (await admin.get('/api/consignees')).json()
  ).data;
  const consignee = consignees.find((candidate) => candidate.name === newest.consigneeName)!;
  expect(consignee).toBeDefined();

  const username = uniqueName('scope');
  const viewer = await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
  await signIn(page, username, PASSWORD);
  await expect(page.getByText('No statistics data available.')).toBeVisible();
  await openHydrated(page, '/receipts');
  await expect(page.getByText('No receipts found')).toBeVisible();

  expect(
    (
      await admin.post(`/api/consignees/${consignee.id}/add-user`, { data: { userId: viewer.id } })
    ).status(),
  ).toBe(200);
  await page.goto('/dashboard');
  const topConsignees = page.getByRole('region', { name: 'Top Consignees' });
  await expect(topConsignees.getByRole('listitem')).toHaveCount(1);
  await expect(topConsignees.getByRole('listitem')).toContainText(consignee.name);

  await openHydrated(page, '/receipts');
  const consigneeCells = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .locator('td:nth-child(4)');
  await expect(consigneeCells.first()).toHaveText(consignee.name);
  expect(new Set(await consigneeCells.allTextContents())).toEqual(new Set([consignee.name]));

  await admin.delete(`/api/consignees/${consignee.id}/remove-user/${viewer.id}`);
  await admin.dispose();
});
