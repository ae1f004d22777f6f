/**
 * The admin screens in Dutch: a browser whose language is Dutch (Accept-Language: nl) gets
 * Token Management, the consignee assignments, logo and background, and the sandbox provider's consent
 * page in Dutch. On the admin-area portal, which other files change at the same time: these tests only
 * look, open dialogs and try files that are refused, so they change nothing (the admin keeps no saved
 * language either, the browser's decides).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { ADMIN_AREA_URL } from '../support/e2e-env';
import { TEXT_FILE } from '../support/images';
import { stallLimit } from '../support/test-pace';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';

test.use({ baseURL: ADMIN_AREA_URL, locale: 'nl-NL' });

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, ADMIN_AREA_URL);
});

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 });
const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
/** The value beside a label in a card's facts. */
const fact = (region: Locator, label: string) => region.locator(`dt:text-is("${label}") + dd`);
const notText = { name: TEXT_FILE.name, mimeType: TEXT_FILE.type, buffer: TEXT_FILE.bytes };

test("Token Management is in Dutch: cards, buttons, the manual form's rule and the clear confirmation", async ({
  page,
}) => {
  await openHydrated(page, '/admin/tokens');
  await expect(page).toHaveTitle(/^Tokenbeheer · /);
  await expect(heading(page, 'Tokenbeheer')).toBeVisible();
  await expect(
    page.getByText('Inloggegevens voor de API van het externe logistieke systeem'),
  ).toBeVisible();

  const access = card(page, 'Access token');
  await expect(fact(access, 'Status')).toHaveText('Geldig');
  await expect(fact(access, 'Resterende tijd')).toHaveText(/^(\d+ u \d+ min|\d+ min)$/);
  await expect(fact(access, 'Verloopt')).toHaveText(/^\d{2}-\d{2}-\d{4},? \d{2}:\d{2}$/);
  await expect(fact(card(page, 'Aanvullende informatie'), 'Automatisch vernieuwen')).toHaveText(
    'Beschikbaar',
  );
  await expect(
    page
      .getByRole('note')
      .filter({ hasText: 'Access tokens worden automatisch vernieuwd wanneer er nog 5 minuten' }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Handmatig invoeren' }).click();
  const form = card(page, 'Tokens bijwerken');
  await form.getByLabel('Access token', { exact: true }).fill('access-value');
  await form.getByLabel('Refresh token', { exact: true }).fill('refresh-value');
  await form.getByLabel('Geldigheidsduur refresh token (seconden, optioneel)').fill('10');
  await form.getByRole('button', { name: 'Tokens bijwerken' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'De geldigheidsduur van het refresh token moet tussen 300 en 31536000 seconden liggen',
  );
  await page.getByRole('button', { name: 'Formulier verbergen' }).click();
  await expect(form).toBeHidden();

  await page.getByRole('button', { name: 'Tokens wissen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Tokens wissen' });
  await expect(confirm).toContainText('Weet u zeker dat u alle tokens wilt wissen?');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(fact(access, 'Status')).toHaveText('Geldig');
});

test('the consignee assignments are in Dutch: counts, search, an empty result and the picker', async ({
  page,
  adminApi,
}) => {
  if ((await adminApi.assignments()).length === 0)
    await expect(async () => void (await adminApi.importConsignees())).toPass({
      timeout: stallLimit(40_000),
    });
  await openHydrated(page, '/admin/user-consignees');
  await expect(heading(page, 'Gebruikers en geadresseerden')).toBeVisible();
  await expect(page.getByText('Koppel geadresseerden aan klanten')).toBeVisible();
  for (const label of ['Totaal geadresseerden', 'Gekoppeld', 'Niet gekoppeld'])
    await expect(page.getByRole('group', { name: label, exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Koppelingen van geadresseerden' });
  await expect(table.getByRole('button', { name: 'Geadresseerde' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Paginering' }).getByRole('button', { name: 'Volgende' }),
  ).toBeVisible();
  await expect(page.getByText(/^1 tot en met \d+ van [\d.]+ geadresseerden$/)).toBeVisible();

  await table.getByRole('button', { name: 'Gebruiker toevoegen' }).first().click();
  const picker = page.getByRole('dialog', { name: /^Gebruiker toevoegen aan / });
  await expect(
    picker.getByText('De gekozen gebruiker ziet deze geadresseerde voortaan ook.'),
  ).toBeVisible();
  await expect(picker.getByLabel('Gebruikers zoeken')).toBeVisible();
  await picker.getByRole('button', { name: 'Annuleren' }).click();
  await expect(picker).toBeHidden();

  await page.getByLabel('Geadresseerden zoeken').fill('zzz-geen-enkele-geadresseerde');
  await expect(page.getByRole('heading', { name: 'Geen geadresseerden gevonden' })).toBeVisible();
  await expect(
    page.getByText('Geen enkele geadresseerde past bij deze zoekopdracht en dit gebruikersfilter.'),
  ).toBeVisible();
});

test('the logo and background screens are in Dutch, and a file that is no image is refused in Dutch', async ({
  page,
}) => {
  await openHydrated(page, '/admin/logo');
  await expect(heading(page, 'Logo beheren')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Huidig logo' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nieuw logo uploaden' })).toBeVisible();
  await page
    .getByLabel('Sleep een logo hierheen of klik om een bestand te kiezen')
    .setInputFiles(notText);
  await expect(page.getByRole('alert')).toHaveText('Kies een afbeeldingsbestand');

  await openHydrated(page, '/admin/background');
  await expect(heading(page, 'Achtergrond beheren')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dekking van de kaarten' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Dekking bijwerken' })).toBeDisabled();
  await expect(page.getByText('10% (doorzichtiger)')).toBeVisible();
  await page.getByLabel('Klik om een achtergrondafbeelding te uploaden').setInputFiles(notText);
  await expect(page.getByRole('alert')).toHaveText('Kies een geldig afbeeldingsbestand');
});

test('the sandbox provider asks for consent in Dutch, and the refused callback answers in Dutch', async ({
  page,
}) => {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: 'freight-portal',
    redirect_uri: `${ADMIN_AREA_URL}/admin/tokens/callback`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    // A state this session never started: the callback refuses it and stores nothing.
    state: 'dutch-consent-page',
    scope: 'receipts',
  });
  await page.goto(`/sandbox/oauth/authorize?${params}`);
  await expect(page).toHaveTitle(/^Toegang verlenen · /);
  await expect(page.getByRole('heading', { name: /toegang geven$/ })).toBeVisible();
  await expect(
    page.getByText('Uw ontvangstbewijzen, geadresseerden en pakketscans inzien.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Toestaan' })).toBeVisible();

  await page.getByRole('button', { name: 'Weigeren' }).click();
  await expect(page).toHaveURL(/\/admin\/tokens\/callback$/);
  await expect(page.getByRole('heading', { name: 'Autorisatie mislukt' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    /^OAuth2-autorisatie mislukt: Deze autorisatie is onbekend/,
  );
  await expect(page.getByRole('link', { name: 'Terug naar tokenbeheer' })).toBeVisible();
});

test('a refused consent request is explained in Dutch', async ({ page }) => {
  const response = await page.goto(
    '/sandbox/oauth/authorize?client_id=someone-else&response_type=code',
  );
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('heading', { name: 'Autorisatie geweigerd' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    'De toepassing die om toegang vraagt, is niet bij dit systeem geregistreerd.',
  );
});
