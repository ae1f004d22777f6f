/**
 * The language of the sign-in page and the shell (README.md "Languages"): the switcher works without
 * JavaScript, a signed-in choice is saved, and the saved preference beats the switcher's cookie and the
 * browser's Accept-Language.
 */
import type { Page } from '@playwright/test';
import { expect, test, uniqueName } from './fixtures';

const mainMenu = (page: Page, name: string) => page.getByRole('navigation', { name });

async function signInAs(
  page: Page,
  labels: { username: string; password: string; submit: string },
  username: string,
  password: string,
) {
  await page.getByLabel(labels.username).fill(username);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

const DUTCH_LOGIN = { username: 'Gebruikersnaam', password: 'Wachtwoord', submit: 'Inloggen' };

async function expectDutchShell(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  const menu = mainMenu(page, 'Hoofdmenu');
  for (const entry of ['Dashboard', 'Ontvangstbewijzen', 'Profiel'])
    await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText(
    new RegExp(`^Ontworpen door .+ ${new Date().getFullYear()}$`),
  );
}

async function expectEnglishShell(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const menu = mainMenu(page, 'Main');
  for (const entry of ['Dashboard', 'Receipts', 'Profile'])
    await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText(
    new RegExp(`^Designed By .+ ${new Date().getFullYear()}$`),
  );
}

/** Opens the user menu (a plain <details>, so it opens without JavaScript too) and picks a language in it. */
async function chooseInUserMenu(page: Page, fullName: string, menuLabel: string, language: string) {
  await page.getByRole('banner').getByText(fullName, { exact: true }).click();
  await page
    .getByRole('banner')
    .getByRole('form', { name: menuLabel })
    .getByRole('button', { name: language })
    .click();
}

async function signOut(page: Page, fullName: string, label: string) {
  await page.getByRole('banner').getByText(fullName, { exact: true }).click();
  await page.getByRole('button', { name: label }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('Nederlands on the sign-in page turns it Dutch, sign-in lands on a Dutch shell, and English from the user menu is saved', async ({
    page,
    adminApi,
  }) => {
    const user = await adminApi.createUser({
      username: uniqueName('taal'),
      fullName: 'Tess Taal',
      password: 'taal-password',
      role: 'viewer',
    });
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    await page.getByRole('button', { name: 'Nederlands' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await expect(page).toHaveTitle(/^Inloggen · /);
    await expect(page.getByText('Log in voor toegang tot uw vrachtdashboard')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await expect(
      page.getByText('De gebruikersnaam moet minimaal 3 tekens lang zijn'),
    ).toBeVisible();
    await signInAs(page, DUTCH_LOGIN, user.username, 'taal-password');
    await expectDutchShell(page);

    await chooseInUserMenu(page, 'Tess Taal', 'Taal', 'English');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectEnglishShell(page);

    // Signed out, the page follows the switcher's cookie: Dutch is chosen again before signing in,
    // and the saved English preference still wins once the user is known.
    await signOut(page, 'Tess Taal', 'Sign out');
    await page.getByRole('button', { name: 'Nederlands' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await signInAs(page, DUTCH_LOGIN, user.username, 'taal-password');
    await expectEnglishShell(page);
  });
});

test.describe('with a Dutch browser', () => {
  test.use({ locale: 'nl-NL' });

  test('the sign-in page is Dutch by Accept-Language, and a saved English preference beats it', async ({
    page,
    context,
    adminApi,
  }) => {
    const user = await adminApi.createUser({
      username: uniqueName('nlbrowser'),
      fullName: 'Bram Browser',
      password: 'bram-password',
      role: 'viewer',
    });
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await expect(page.getByRole('button', { name: 'Inloggen', exact: true })).toBeVisible();

    await signInAs(page, DUTCH_LOGIN, user.username, 'bram-password');
    await expectDutchShell(page);
    await chooseInUserMenu(page, 'Bram Browser', 'Taal', 'English');
    await expectEnglishShell(page);

    await signOut(page, 'Bram Browser', 'Sign out');
    // Without the switcher's cookie only the browser's Dutch is left before sign-in.
    await context.clearCookies();
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await signInAs(page, DUTCH_LOGIN, user.username, 'bram-password');
    await expectEnglishShell(page);
  });

  test('the profile shows the saved language in its Language card and switches it there', async ({
    page,
    adminApi,
  }) => {
    const user = await adminApi.createUser({
      username: uniqueName('nlprofile'),
      password: 'profile-password',
      role: 'viewer',
    });
    await page.goto('/login');
    await signInAs(page, DUTCH_LOGIN, user.username, 'profile-password');
    await page.goto('/profile');
    await expect(page).toHaveTitle(/^Profielinstellingen · /);
    const card = page.getByRole('region', { name: 'Taal' });
    await expect(card).toContainText('Nog geen taal opgeslagen');

    await card.getByRole('button', { name: 'Nederlands' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('region', { name: 'Taal' })).toContainText(
      'Opgeslagen taal: Nederlands',
    );
    await expect(page.getByRole('heading', { name: 'Wachtwoord wijzigen' })).toBeVisible();

    await page
      .getByRole('region', { name: 'Taal' })
      .getByRole('button', { name: 'English' })
      .click();
    await expect(page.getByRole('region', { name: 'Language' })).toContainText(
      'Saved language: English',
    );
    await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  });
});

test('the language switcher leaves the English sign-in page as it is', async ({ page }) => {
  await page.goto('/login');
  await expect(
    page.getByRole('form', { name: 'Language' }).getByRole('button', { name: 'English' }),
  ).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByText('Sign in to access your freight management dashboard')).toBeVisible();
});
