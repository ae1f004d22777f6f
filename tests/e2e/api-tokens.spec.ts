/**
 * Personal API tokens in Profile Settings, in English on a desktop and in Dutch on a phone: a customer
 * makes a token, sees it once and copies it, a script reads the customer's receipts with it (the
 * Authorization header, no cookie), the customer revokes it after a confirmation, and the script's
 * next request is a 401. The admin sees a user's tokens counted in User Management and revokes them.
 */
import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
import type { Receipt } from '../../src/shared/receipts';
import {
  adminRequest,
  expect,
  openHydrated,
  signInAsAdmin,
  test,
  uniqueName,
  type AdminApi,
} from './fixtures';

const PASSWORD = 'token-user-pass-1';
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

const TEXTS = {
  en: {
    region: 'API tokens',
    name: 'Token name',
    expiry: 'Expires after',
    days: '90 days',
    create: 'Create token',
    newToken: 'New API token',
    copy: 'Copy token',
    copied: 'Token copied',
    once: /shown only once/,
    done: 'Done',
    list: 'Your API tokens',
    revoke: (name: string) => `Revoke the API token ${name}`,
    dialog: 'Revoke API token',
    confirm: 'Revoke token',
    revoked: 'The API token has been revoked.',
    empty: 'You have no API tokens.',
    refused: 'This API token has been revoked. Create a new one in Profile Settings.',
  },
  nl: {
    region: 'API-tokens',
    name: 'Naam van het token',
    expiry: 'Verloopt na',
    days: '90 dagen',
    create: 'Token maken',
    newToken: 'Nieuw API-token',
    copy: 'Token kopiëren',
    copied: 'Token gekopieerd',
    once: /maar één keer getoond/,
    done: 'Klaar',
    list: 'Uw API-tokens',
    revoke: (name: string) => `Het API-token ${name} intrekken`,
    dialog: 'API-token intrekken',
    confirm: 'Token intrekken',
    revoked: 'Het API-token is ingetrokken.',
    empty: 'U hebt geen API-tokens.',
    refused: 'Dit API-token is ingetrokken. Maak een nieuw token in Profielinstellingen.',
  },
} as const;

/** A customer of the consignee with the most receipts (the list's first page tells which). */
async function customer(
  adminApi: AdminApi,
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
): Promise<{ username: string }> {
  await adminApi.importConsignees();
  const admin = await adminRequest(playwright, baseURL);
  const listed = await admin.get('/api/receipts?limit=1&sortBy=receivedDate&sortOrder=desc');
  expect(listed.status()).toBe(200);
  const [receipt] = (await listed.json()).data as Receipt[];
  const consignees: Array<{ id: number; name: string }> = (
    await (await admin.get('/api/consignees')).json()
  ).data;
  await admin.dispose();
  const username = uniqueName('tokens');
  const user = await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
  await adminApi.addUserToConsignee(
    consignees.find((candidate) => candidate.name === receipt!.consigneeName)!.id,
    user.id,
  );
  return { username };
}

/** A script of the customer's: its own requests, without the browser's cookies, with the token. */
async function script(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  token: string,
): Promise<APIRequestContext> {
  return playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${token}` },
  });
}

for (const [language, locale, device] of [
  ['en', 'en-US', {}],
  ['nl', 'nl-NL', PHONE],
] as const) {
  test.describe(`in ${language}`, () => {
    test.use({ locale, ...device, permissions: ['clipboard-read', 'clipboard-write'] });

    test('a customer makes a token, sees it once, reads receipts with it from a script, revokes it, and the script is refused', async ({
      page,
      adminApi,
      playwright,
      baseURL,
    }) => {
      const texts = TEXTS[language];
      const { username } = await customer(adminApi, playwright, baseURL!);
      // Through the login call the form makes: the form's labels are the language's own.
      const signedIn = await page.request.post('/api/auth/login', {
        data: { username, password: PASSWORD },
        headers: { Origin: baseURL! },
      });
      expect(signedIn.status()).toBe(200);
      await openHydrated(page, '/profile');
      const section = page.getByRole('region', { name: texts.region, exact: true });
      await expect(section.getByText(texts.empty)).toBeVisible();

      const name = `Stock system ${language}`;
      await section.getByLabel(texts.name).fill(name);
      await section.getByLabel(texts.expiry).selectOption({ label: texts.days });
      await section.getByRole('button', { name: texts.create }).click();
      const field = section.getByRole('textbox', { name: texts.newToken });
      await expect(field).toHaveValue(/^fp_[0-9A-Za-z]{43}$/);
      const token = await field.inputValue();
      await expect(section.getByText(texts.once)).toBeVisible();
      await section.getByRole('button', { name: texts.copy }).click();
      await expect(section.getByText(texts.copied)).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      const listed = section.getByRole('list', { name: texts.list }).getByRole('listitem');
      await expect(listed).toHaveCount(1);
      await expect(listed).toContainText(name);
      await expect(listed).toContainText(`${token.slice(0, 11)}…`);

      // The script reads what the customer's session reads.
      const reader = await script(playwright, baseURL!, token);
      const byToken = await reader.get('/api/receipts?limit=100');
      expect(byToken.status(), await byToken.text()).toBe(200);
      const bySession = await page.request.get('/api/receipts?limit=100');
      const numbers = (response: { data: Receipt[] }) =>
        response.data.map((receipt) => receipt.number);
      expect(numbers(await byToken.json())).toEqual(numbers(await bySession.json()));
      expect((await byToken.json()).data.length).toBeGreaterThan(0);
      const first = ((await byToken.json()).data as Receipt[])[0]!;
      const detail = await reader.get(`/api/receipts/${first.id}`);
      expect(detail.status()).toBe(200);
      expect((await detail.json()).data.history.length).toBeGreaterThan(0);
      const csv = await reader.get('/api/receipts/export.csv');
      expect(csv.status()).toBe(200);
      expect(await csv.text()).toContain(first.number);
      // Reading only: the same token cannot change anything.
      expect((await reader.post(`/api/receipts/${first.id}/share`)).status()).toBe(403);

      // Shown once: after Done, and on the page opened again, only the prefix remains.
      await section.getByRole('button', { name: texts.done }).click();
      await expect(field).toHaveCount(0);
      await openHydrated(page, '/profile');
      expect(await page.content()).not.toContain(token);
      await expect(section.getByRole('list', { name: texts.list })).toContainText(
        `${token.slice(0, 11)}…`,
      );

      await section.getByRole('button', { name: texts.revoke(name) }).click();
      const dialog = page.getByRole('dialog', { name: texts.dialog });
      await expect(dialog).toContainText(name);
      await dialog.getByRole('button', { name: texts.confirm }).click();
      await expect(dialog).toBeHidden();
      await expect(section.getByRole('status').filter({ hasText: texts.revoked })).toBeVisible();
      await expect(section.getByText(texts.empty)).toBeVisible();

      const refused = await reader.get('/api/receipts?limit=100', {
        headers: { 'Accept-Language': language },
      });
      expect(refused.status()).toBe(401);
      expect(await refused.json()).toMatchObject({
        success: false,
        errorType: 'AUTHENTICATION_ERROR',
        message: texts.refused,
      });
      await reader.dispose();
    });
  });
}

test("the admin sees a user's working tokens counted in User Management and revokes them all", async ({
  page,
  adminApi,
  playwright,
  baseURL,
}) => {
  const username = uniqueName('tokenadm');
  await adminApi.createUser({ username, password: PASSWORD, role: 'viewer' });
  const user = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Origin: baseURL! },
  });
  expect(
    (await user.post('/api/auth/login', { data: { username, password: PASSWORD } })).status(),
  ).toBe(200);
  const tokens: string[] = [];
  for (const name of ['first', 'second']) {
    const made = await user.post('/api/auth/tokens', { data: { name, expiresInDays: 30 } });
    expect(made.status(), await made.text()).toBe(201);
    tokens.push((await made.json()).data.token);
  }
  await user.dispose();

  await signInAsAdmin(page);
  await openHydrated(page, '/admin/users');
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Edit ${username}`, exact: true }) });
  await expect(row).toContainText('API tokens: 2');
  await row.getByRole('button', { name: `Revoke the API tokens of ${username}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke API tokens' });
  await expect(dialog).toContainText(`Revoke every API token of ${username}?`);
  await dialog.getByRole('button', { name: 'Revoke tokens' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: 'API tokens revoked: 2.' }),
  ).toBeVisible();
  await expect(row).not.toContainText('API tokens:');
  await expect(
    row.getByRole('button', { name: `Revoke the API tokens of ${username}` }),
  ).toHaveCount(0);

  for (const token of tokens) {
    const reader = await script(playwright, baseURL!, token);
    expect((await reader.get('/api/receipts?limit=1')).status()).toBe(401);
    await reader.dispose();
  }
});
