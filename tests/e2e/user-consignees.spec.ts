/**
 * User-Consignee Management at /admin/user-consignees, against the admin-area portal.
 * Other files use that portal at the same time: these tests assign only their own viewers, and only to
 * the consignees found by one search term that nobody else's user is on; deleting those viewers at the
 * end removes every assignment they made. Counts are compared with what the page itself shows, since
 * other files assign too. The tests build on each other, so they run in order.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { ConsigneeAssignmentDto } from '../../src/shared/consignees';
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { stallLimit } from '../support/test-pace';
import {
  ADMIN,
  AdminApi,
  adminRequest,
  expect,
  openHydrated,
  signInAsAdmin,
  test,
  uniqueName,
} from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL });
test.describe.configure({ mode: 'serial' });

const PAGE_SIZE = 30;
/** Each matches three to five of the sandbox's consignees (Handelshuis, Groothandel …; Office Supplies …), all on one page. */
const SEARCH_TERMS = ['handel', 'supplies'];
const PASSWORD = 'viewer-pass-1';
const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare;

// Named afresh in beforeAll, so that a repeated run creates users of its own.
const first = { username: '', fullName: 'Grid First Viewer' };
const second = { username: '', fullName: 'Grid Second Viewer' };
let otherAdmin = '';
const createdIds: number[] = [];
let request: APIRequestContext;
let api: AdminApi;
/** The search term these tests use, and the consignees it finds, by name. */
let search = '';
let mine: string[] = [];

const rowOf = (page: Page, consignee: string) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('checkbox', { name: `Select ${consignee}`, exact: true }) });
const rowBoxes = (page: Page) =>
  page
    .getByRole('table', { name: 'Consignee assignments' })
    .getByRole('checkbox', { name: /^Select (?!Page$)/ });
const count = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
const chipRemover = (page: Page, username: string, consignee: string) =>
  page.getByRole('button', { name: `Remove ${username} from ${consignee}`, exact: true });
const searchBox = (page: Page) => page.getByLabel('Search consignees');
const userFilter = (page: Page) => page.getByLabel('User', { exact: true });
const bulkBar = (page: Page) => page.getByRole('toolbar', { name: 'Bulk actions' });
const pageButton = (page: Page, number: number) =>
  page
    .getByRole('navigation', { name: 'Pagination' })
    .getByRole('button', { name: `Page ${number}`, exact: true });

/** The consignee names of the rows shown, top to bottom. */
const shownNames = async (page: Page) =>
  (
    await rowBoxes(page).evaluateAll((boxes) => boxes.map((box) => box.getAttribute('aria-label')))
  ).map((label) => label!.slice('Select '.length));

function countsOf(rows: ConsigneeAssignmentDto[]) {
  const assigned = rows.filter((row) => row.assignedUsers.length > 0).length;
  return { total: rows.length, assigned, unassigned: rows.length - assigned };
}

async function shownCounts(page: Page) {
  const read = async (label: string) =>
    Number((await count(page, label).innerText()).replace(label, '').replace(/\D/g, ''));
  return {
    total: await read('Total Consignees'),
    assigned: await read('Assigned'),
    unassigned: await read('Unassigned'),
  };
}

async function openGrid(page: Page) {
  await signInAsAdmin(page, ADMIN_AREA_URL);
  await openHydrated(page, '/admin/user-consignees');
  await expect(page.getByRole('heading', { name: 'User-Consignee Management' })).toBeVisible();
}

test.beforeAll(async ({ playwright }) => {
  request = await adminRequest(playwright, ADMIN_AREA_URL);
  api = new AdminApi(request, ADMIN_AREA_URL);
  // The portal starts without consignees; another file may be importing too, or have the provider down for a moment.
  if ((await api.assignments()).length === 0)
    await expect(async () => void (await api.importConsignees())).toPass({
      timeout: stallLimit(40_000),
    });
  first.username = uniqueName('grida');
  second.username = uniqueName('gridb');
  otherAdmin = uniqueName('gridadmin');
  createdIds.length = 0;
  for (const viewer of [first, second])
    createdIds.push((await api.createUser({ ...viewer, password: PASSWORD, role: 'viewer' })).id);
  createdIds.push(
    (await api.createUser({ username: otherAdmin, password: PASSWORD, role: 'admin' })).id,
  );

  // consignee-scope.spec.ts gives a viewer of its own the consignee of the newest receipt.
  const newest: string = (await (await request.get('/api/receipts?limit=1')).json()).data[0]
    .consigneeName;
  const rows = await api.assignments();
  const free = (term: string) =>
    rows.filter((row) => row.consignee.name.toLowerCase().includes(term));
  search = SEARCH_TERMS.find((term) =>
    free(term).every((row) => row.assignedUsers.length === 0 && row.consignee.name !== newest),
  )!;
  expect(search, 'a search term whose consignees nobody else uses').toBeDefined();
  mine = free(search)
    .map((row) => row.consignee.name)
    .sort(byName);
  expect(mine.length).toBeGreaterThanOrEqual(3);
  expect(mine.length).toBeLessThanOrEqual(PAGE_SIZE);
});

test.afterAll(async () => {
  // Deleting a user removes their assignments.
  for (const id of createdIds) await api.deleteUser(id);
  await request.dispose();
});

test('shows the counts and 30 rows a page with numbered buttons; a search returns to page 1', async ({
  page,
}) => {
  await openGrid(page);
  const all = await api.assignments();
  expect(await shownCounts(page)).toEqual(countsOf(all));
  const names = all.map((row) => row.consignee.name).sort(byName);
  const pages = Math.ceil(names.length / PAGE_SIZE);
  expect(pages).toBeGreaterThanOrEqual(2);
  await expect(rowBoxes(page)).toHaveCount(PAGE_SIZE);
  await expect(
    page.getByText(`Showing 1 to ${PAGE_SIZE} of ${names.length} consignees`),
  ).toBeVisible();
  for (let number = 1; number <= pages; number += 1)
    await expect(pageButton(page, number)).toBeVisible();
  await expect(pageButton(page, 1)).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect.poll(() => shownNames(page)).toEqual(names.slice(0, PAGE_SIZE));

  await pageButton(page, 2).click();
  await expect(pageButton(page, 2)).toHaveAttribute('aria-current', 'page');
  await expect.poll(() => shownNames(page)).toEqual(names.slice(PAGE_SIZE, 2 * PAGE_SIZE));
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(pageButton(page, 1)).toHaveAttribute('aria-current', 'page');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(pageButton(page, 2)).toHaveAttribute('aria-current', 'page');

  await searchBox(page).fill(search.toUpperCase());
  await expect(rowBoxes(page)).toHaveCount(mine.length);
  await expect(pageButton(page, 1)).toHaveAttribute('aria-current', 'page');
  await expect(pageButton(page, 2)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect.poll(() => shownNames(page)).toEqual(mine);

  await searchBox(page).fill('no consignee is called this');
  await expect(page.getByRole('heading', { name: 'No consignees found' })).toBeVisible();
  await expect(rowBoxes(page)).toHaveCount(0);
  await searchBox(page).fill('');
  await expect(rowBoxes(page)).toHaveCount(PAGE_SIZE);
});

test('Select Page and the bulk Add User: the picker lists viewers only and its search narrows them', async ({
  page,
}) => {
  await openGrid(page);
  await searchBox(page).fill(search);
  await expect(rowBoxes(page)).toHaveCount(mine.length);
  await expect(bulkBar(page)).toBeHidden();
  await page.getByRole('checkbox', { name: 'Select Page' }).check();
  for (const box of await rowBoxes(page).all()) await expect(box).toBeChecked();
  await expect(bulkBar(page)).toContainText(`${mine.length} selected`);

  await bulkBar(page).getByRole('button', { name: 'Add User' }).click();
  const picker = page.getByRole('dialog', { name: `Add User to ${mine.length} consignees` });
  await expect(picker.getByRole('button', { name: first.username })).toBeVisible();
  await expect(picker.getByRole('button', { name: second.username })).toBeVisible();
  await expect(picker.getByRole('button', { name: otherAdmin })).toHaveCount(0);
  await expect(picker.getByRole('button', { name: ADMIN.username, exact: true })).toHaveCount(0);

  await picker.getByLabel('Search users').fill('grid first');
  await expect(picker.getByRole('button', { name: second.username })).toHaveCount(0);
  await picker.getByLabel('Search users').fill(first.username.toUpperCase());
  await expect(picker.getByRole('button', { name: second.username })).toHaveCount(0);
  const before = await shownCounts(page);
  await picker.getByRole('button', { name: first.username }).click();

  await expect(picker).toBeHidden();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Added ${first.username} to ${mine.length} consignees` }),
  ).toBeVisible();
  for (const consignee of mine)
    await expect(chipRemover(page, first.username, consignee)).toBeVisible();
  await expect(bulkBar(page)).toBeHidden();
  // Nobody else's user was on these consignees, so each of them is newly assigned.
  await expect
    .poll(() => shownCounts(page))
    .toEqual({
      total: before.total,
      assigned: before.assigned + mine.length,
      unassigned: before.unassigned - mine.length,
    });
});

test('the user filter shows one viewer’s consignees or the unassigned ones, from page 1', async ({
  page,
}) => {
  await openGrid(page);
  await pageButton(page, 2).click();
  await userFilter(page).selectOption({ label: `${first.fullName} (${first.username})` });
  await expect.poll(() => shownNames(page)).toEqual(mine);
  await expect(pageButton(page, 1)).toHaveAttribute('aria-current', 'page');

  await userFilter(page).selectOption({ label: 'Unassigned' });
  const { unassigned } = await shownCounts(page);
  await expect(rowBoxes(page)).toHaveCount(Math.min(PAGE_SIZE, unassigned));
  await expect(page.getByText(`of ${unassigned} consignees`)).toBeVisible();
  for (const consignee of mine) await expect(rowOf(page, consignee)).toHaveCount(0);
  await expect(userFilter(page).getByRole('option', { name: otherAdmin })).toHaveCount(0);

  await userFilter(page).selectOption({ label: 'All Users' });
  await expect(rowBoxes(page)).toHaveCount(PAGE_SIZE);
});

test('per row: Replace All, Add User (the users already on it disabled) and × on a chip', async ({
  page,
}) => {
  const target = mine[0]!;
  await openGrid(page);
  await searchBox(page).fill(target);
  const row = rowOf(page, target);

  await row.getByRole('button', { name: 'Replace All' }).click();
  const replace = page.getByRole('dialog', { name: `Replace All Users of ${target}` });
  await replace.getByRole('button', { name: second.username }).click();
  await expect(replace).toBeHidden();
  await expect(chipRemover(page, second.username, target)).toBeVisible();
  await expect(chipRemover(page, first.username, target)).toHaveCount(0);

  await row.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: `Add User to ${target}` });
  await expect(add.getByRole('button', { name: second.username })).toBeDisabled();
  await add.getByRole('button', { name: first.username }).click();
  await expect(add).toBeHidden();
  await expect(chipRemover(page, first.username, target)).toBeVisible();
  await expect(chipRemover(page, second.username, target)).toBeVisible();

  await chipRemover(page, second.username, target).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Removed ${second.username} from ${target}` }),
  ).toBeVisible();
  await expect(chipRemover(page, second.username, target)).toHaveCount(0);
  await expect(chipRemover(page, first.username, target)).toBeVisible();
});

test('bulk Replace Users on two rows; the Assigned User and Consignee headers sort both ways', async ({
  page,
}) => {
  const replaced = mine.slice(-2);
  await openGrid(page);
  await searchBox(page).fill(search);
  for (const consignee of replaced)
    await page.getByRole('checkbox', { name: `Select ${consignee}`, exact: true }).check();
  await expect(bulkBar(page)).toContainText('2 selected');
  await bulkBar(page).getByRole('button', { name: 'Replace Users' }).click();
  const picker = page.getByRole('dialog', { name: 'Replace Users of 2 consignees' });
  await picker.getByRole('button', { name: second.username }).click();
  await expect(picker).toBeHidden();
  for (const consignee of replaced) {
    await expect(chipRemover(page, second.username, consignee)).toBeVisible();
    await expect(chipRemover(page, first.username, consignee)).toHaveCount(0);
  }

  // first's username sorts before second's, so ascending by user puts the replaced rows last.
  const keptFirst = mine.filter((consignee) => !replaced.includes(consignee));
  await page.getByRole('button', { name: 'Assigned User' }).click();
  await expect(page.getByRole('columnheader', { name: 'Assigned User' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect.poll(() => shownNames(page)).toEqual([...keptFirst, ...replaced]);
  await page.getByRole('button', { name: 'Assigned User' }).click();
  await expect(page.getByRole('columnheader', { name: 'Assigned User' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect.poll(() => shownNames(page)).toEqual([...keptFirst, ...replaced].reverse());

  await page.getByRole('button', { name: 'Consignee', exact: true }).click();
  await expect(page.getByRole('columnheader', { name: 'Consignee', exact: true })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect.poll(() => shownNames(page)).toEqual(mine);
  await page.getByRole('button', { name: 'Consignee', exact: true }).click();
  await expect.poll(() => shownNames(page)).toEqual([...mine].reverse());
});

test('a failed change shows the server’s message, or the standard text when there is none', async ({
  page,
}) => {
  const target = mine[0]!;
  const leaving = await api.createUser({
    username: uniqueName('gridgone'),
    password: PASSWORD,
    role: 'viewer',
  });
  const consigneeId = (await api.assignments()).find((row) => row.consignee.name === target)!
    .consignee.id;
  await api.addUserToConsignee(consigneeId, leaving.id);

  await openGrid(page);
  await searchBox(page).fill(target);
  await expect(chipRemover(page, leaving.username, target)).toBeVisible();
  await api.deleteUser(leaving.id);
  await chipRemover(page, leaving.username, target).click();
  await expect(page.getByRole('alert').filter({ hasText: 'User not found' })).toBeVisible();
  // The reload after the failure shows the user gone with the account.
  await expect(chipRemover(page, leaving.username, target)).toHaveCount(0);

  // A request that never gets an answer has no message of its own.
  await page.route('**/api/consignees/*/add-user', (route) => route.abort());
  await rowOf(page, target).getByRole('button', { name: 'Add User' }).click();
  await page
    .getByRole('dialog', { name: `Add User to ${target}` })
    .getByRole('button', { name: second.username })
    .click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Failed to add user to consignee' }),
  ).toBeVisible();
  await expect(chipRemover(page, second.username, target)).toHaveCount(0);
});

test('Remove All makes one removal call per assigned user and leaves the selected consignees unassigned', async ({
  page,
}) => {
  const before = (await api.assignments()).filter((row) => mine.includes(row.consignee.name));
  const removals: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE' && request.url().includes('/remove-user/'))
      removals.push(request.url());
  });

  await openGrid(page);
  await searchBox(page).fill(search);
  await page.getByRole('checkbox', { name: 'Select Page' }).check();
  await bulkBar(page).getByRole('button', { name: 'Remove All' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove All Users' });
  const counts = await shownCounts(page);
  await confirm.getByRole('button', { name: 'Remove All' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Removed every user from ${mine.length} consignees` }),
  ).toBeVisible();

  for (const consignee of mine) await expect(rowOf(page, consignee)).toContainText('Unassigned');
  expect(removals).toHaveLength(before.reduce((sum, row) => sum + row.assignedUsers.length, 0));
  await expect(bulkBar(page)).toBeHidden();
  await expect
    .poll(() => shownCounts(page))
    .toEqual({
      total: counts.total,
      assigned: counts.assigned - mine.length,
      unassigned: counts.unassigned + mine.length,
    });
  await userFilter(page).selectOption({ label: `${first.fullName} (${first.username})` });
  await expect(page.getByRole('heading', { name: 'No consignees found' })).toBeVisible();
});

test('at 375 px the page does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openGrid(page);
  await expect(rowBoxes(page).first()).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
