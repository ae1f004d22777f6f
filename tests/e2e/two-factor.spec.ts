/**
 * Two-factor sign-in in the browser, in English and in Dutch: a user turns it on in Profile Settings
 * (reading the setup key shown as text, and computing the app's code here), then signs in with the
 * password and a code, and with the password and a recovery code.
 */
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, openHydrated, test, uniqueName } from './fixtures';

const PASSWORD = 'two-factor-pass-1';

const LANGUAGES = [
  {
    locale: 'en-US',
    username: 'Username',
    password: 'Password',
    signIn: 'Sign in',
    section: 'Two-factor sign-in',
    setUp: 'Set up two-factor sign-in',
    setupKey: 'Setup key',
    copyKey: 'Copy setup key',
    openApp: 'Open in authenticator app',
    appCode: 'Code from your app',
    turnOn: 'Turn on',
    codes: 'Your recovery codes',
    saved: 'I have saved my codes',
    statusOn: 'On: signing in asks for a code from your authenticator app.',
    codesLeft: (count: number) => `Recovery codes left: ${count}`,
    code: 'Authentication code',
    recoveryHint: 'Lost your phone? Use a recovery code instead.',
    verify: 'Verify',
    wrongCode: 'The code is wrong or has already been used',
  },
  {
    locale: 'nl-NL',
    username: 'Gebruikersnaam',
    password: 'Wachtwoord',
    signIn: 'Inloggen',
    section: 'Tweestapsverificatie',
    setUp: 'Tweestapsverificatie instellen',
    setupKey: 'Instelsleutel',
    copyKey: 'Instelsleutel kopiëren',
    openApp: 'Openen in authenticator-app',
    appCode: 'Code uit uw app',
    turnOn: 'Aanzetten',
    codes: 'Uw herstelcodes',
    saved: 'Ik heb mijn codes bewaard',
    statusOn: 'Aan: bij het inloggen wordt om een code uit uw authenticator-app gevraagd.',
    codesLeft: (count: number) => `Resterende herstelcodes: ${count}`,
    code: 'Verificatiecode',
    recoveryHint: 'Telefoon kwijt? Gebruik dan een herstelcode.',
    verify: 'Controleren',
    wrongCode: 'De code is onjuist of al gebruikt',
  },
] as const;

type Texts = (typeof LANGUAGES)[number];

/** The code the authenticator app shows at `timestamp`. */
function appCode(secret: string, timestamp = Date.now()): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp,
  });
}

async function enterPassword(page: Page, texts: Texts, username: string): Promise<void> {
  await openHydrated(page, '/login');
  await page.getByLabel(texts.username).fill(username);
  await page.getByLabel(texts.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: texts.signIn }).click();
}

for (const texts of LANGUAGES) {
  test.describe(texts.locale, () => {
    test.use({ locale: texts.locale });

    test('turns two-factor sign-in on in Profile Settings, then signs in with a code and with a recovery code', async ({
      page,
      adminApi,
    }) => {
      const user = await adminApi.createUser({
        username: uniqueName('tfa'),
        password: PASSWORD,
        role: 'viewer',
      });
      await enterPassword(page, texts, user.username);
      await expect(page).toHaveURL(/\/dashboard$/);

      await openHydrated(page, '/profile');
      const section = page.getByRole('region', { name: texts.section });
      await section.getByRole('button', { name: texts.setUp }).click();
      await expect(section.getByRole('img')).toBeVisible();
      const secret = (await section.getByLabel(texts.setupKey).textContent())!.replace(/\s/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      // A phone cannot scan its own screen: the key can be copied, or the app opened with it.
      await expect(section.getByRole('button', { name: texts.copyKey })).toBeVisible();
      await expect(section.getByRole('link', { name: texts.openApp })).toHaveAttribute(
        'href',
        new RegExp(`^otpauth://totp/.*secret=${secret}`),
      );
      await section.getByLabel(texts.appCode).fill(appCode(secret));
      await section.getByRole('button', { name: texts.turnOn }).click();

      const codeList = section.getByRole('list', { name: texts.codes });
      await expect(codeList.getByRole('listitem')).toHaveCount(10);
      const recoveryCodes = await codeList.getByRole('listitem').allTextContents();
      await section.getByRole('button', { name: texts.saved }).click();
      await expect(section.getByText(texts.statusOn)).toBeVisible();
      await expect(section.getByText(texts.codesLeft(10))).toBeVisible();

      // Signed out; the password alone no longer signs in.
      await page.context().clearCookies();
      await enterPassword(page, texts, user.username);
      const code = page.getByLabel(texts.code);
      await expect(code).toBeFocused();
      await expect(page.getByText(texts.recoveryHint)).toBeVisible();
      await code.fill('000000');
      await page.getByRole('button', { name: texts.verify }).click();
      await expect(page.getByRole('alert')).toHaveText(texts.wrongCode);
      // The code enabling used is spent: the app's next one, which the server takes one step early.
      await code.fill(appCode(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: texts.verify }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      await page.context().clearCookies();
      await enterPassword(page, texts, user.username);
      await page.getByLabel(texts.code).fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: texts.verify }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await openHydrated(page, '/profile');
      await expect(
        page.getByRole('region', { name: texts.section }).getByText(texts.codesLeft(9)),
      ).toBeVisible();
    });
  });
}
