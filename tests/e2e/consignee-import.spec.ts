/**
 * User Management: 'Import Consignees' and 'Last consignee import: date', with the
 * result line that goes after 5 seconds. On the admin-area portal, where other tests
 * may import too, so the counts are read, not assumed.
 */
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL });

/** The en-US date form, '11/23/2026', as the English page shows it. */
const formatDate = (date: Date) =>
  new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    date,
  );

test('imports the consignees and shows the result for 5 seconds and the date of the import', async ({
  page,
}) => {
  await signInAsAdmin(page, ADMIN_AREA_URL);
  await openHydrated(page, '/admin/users');

  const button = page.getByRole('button', { name: 'Import Consignees' });
  await button.click();
  const result = page.getByRole('status').filter({ hasText: 'Import completed:' });
  await expect(result).toHaveText(
    /^Import completed: \d+ new consignees imported, \d+ updated, \d+ deleted\. 0 errors occurred\.$/,
  );
  await expect(page.getByText(`Last consignee import: ${formatDate(new Date())}`)).toBeVisible();

  const consignees = await page.context().request.get('/api/consignees');
  expect((await consignees.json()).data.length).toBeGreaterThan(20);

  await expect(result).toBeHidden();

  // A second import finds nothing new; the page shows the same date after a reload, from the server.
  await button.click();
  await expect(
    page.getByRole('status').filter({
      hasText:
        'Import completed: 0 new consignees imported, 0 updated, 0 deleted. 0 errors occurred.',
    }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByText(`Last consignee import: ${formatDate(new Date())}`)).toBeVisible();
});
