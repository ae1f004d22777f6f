/**
 * Accounts that look after themselves, walked in the browser in English and in Dutch: a forgotten
 * password and an invitation, from the form through a real SMTP server's mailbox to signing in.
 */
import type { Page } from '@playwright/test';
import { ACCOUNTS_URL } from '../support/e2e-env';
import { expect, linkInMail, openHydrated, signInAsAdmin, test, uniqueName } from './fixtures';

test.use({ baseURL: ACCOUNTS_URL });

const TEXTS = {
  en: {
    forgot: 'Forgot password?',
    login: 'Username or e-mail address',
    send: 'Send link',
    sent: 'a link to choose a new password is on its way',
    newPassword: 'New Password',
    confirm: 'Confirm New Password',
    save: 'Save new password',
    mismatch: "Passwords don't match",
    resetDone: 'Your password has been changed. Sign in with your new password.',
    used: 'This password reset link has expired or has already been used.',
    username: 'Username',
    password: 'Password',
    signIn: 'Sign in',
    resetSubject: 'choose a new password',
    addUser: 'Add User',
    inviteOption: 'Send an invitation e-mail',
    create: 'Create User',
    inviteSent: 'Invitation sent',
    invited: 'Invited',
    fullName: 'Full Name',
    email: 'Email',
    setPassword: 'Set password',
    inviteDone: 'Your account is ready. Sign in with your username and your new password.',
    inviteSubject: 'your invitation',
    resend: (username: string) => `Resend invitation to ${username}`,
    resent: 'Invitation sent again',
    inviteUsed: 'This invitation has expired, was withdrawn or has already been used.',
    inviteLanguage: 'Language of the invitation',
  },
  nl: {
    forgot: 'Wachtwoord vergeten?',
    login: 'Gebruikersnaam of e-mailadres',
    send: 'Link versturen',
    sent: 'is er een link onderweg om een nieuw wachtwoord te kiezen',
    newPassword: 'Nieuw wachtwoord',
    confirm: 'Nieuw wachtwoord bevestigen',
    save: 'Nieuw wachtwoord opslaan',
    mismatch: 'De wachtwoorden komen niet overeen',
    resetDone: 'Uw wachtwoord is gewijzigd. Log in met uw nieuwe wachtwoord.',
    used: 'Deze link om uw wachtwoord opnieuw in te stellen is verlopen of al gebruikt.',
    username: 'Gebruikersnaam',
    password: 'Wachtwoord',
    signIn: 'Inloggen',
    resetSubject: 'kies een nieuw wachtwoord',
    addUser: 'Gebruiker toevoegen',
    inviteOption: 'Uitnodiging per e-mail sturen',
    create: 'Gebruiker aanmaken',
    inviteSent: 'Uitnodiging verstuurd',
    invited: 'Uitgenodigd',
    fullName: 'Volledige naam',
    email: 'E-mailadres',
    setPassword: 'Wachtwoord instellen',
    inviteDone: 'Uw account is klaar. Log in met uw gebruikersnaam en uw nieuwe wachtwoord.',
    inviteSubject: 'uw uitnodiging',
    resend: (username: string) => `Uitnodiging opnieuw sturen naar ${username}`,
    resent: 'Uitnodiging opnieuw verstuurd',
    inviteUsed: 'Deze uitnodiging is verlopen, ingetrokken of al gebruikt.',
    inviteLanguage: 'Taal van de uitnodiging',
  },
} as const;

async function choosePassword(
  page: Page,
  texts: (typeof TEXTS)['en' | 'nl'],
  submit: string,
  password: string,
): Promise<void> {
  await page.getByLabel(texts.newPassword, { exact: true }).fill(password);
  await page.getByLabel(texts.confirm).fill(`${password}-typo`);
  await page.getByRole('button', { name: submit }).click();
  await expect(page.getByText(texts.mismatch)).toBeVisible();
  await page.getByLabel(texts.confirm).fill(password);
  await page.getByRole('button', { name: submit }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function signInWith(
  page: Page,
  texts: (typeof TEXTS)['en' | 'nl'],
  username: string,
  password: string,
): Promise<void> {
  await page.getByLabel(texts.username).fill(username);
  await page.getByLabel(texts.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: texts.signIn }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

for (const locale of ['en', 'nl'] as const) {
  const texts = TEXTS[locale];

  test(`a customer who forgot the password chooses a new one from the e-mail's link (${locale})`, async ({
    page,
    adminApi,
  }) => {
    const username = uniqueName(`forgot${locale}`);
    const email = `${username}@example.com`;
    await adminApi.createUser({ username, password: 'forgotten-1', email, role: 'viewer' });
    if (locale === 'nl') {
      // The customer's saved language is the e-mail's.
      const signedIn = await page.request.post('/api/auth/login', {
        data: { username, password: 'forgotten-1' },
        headers: { Origin: ACCOUNTS_URL },
      });
      expect(signedIn.status()).toBe(200);
      expect(
        (
          await page.request.put('/api/auth/profile/preferences', {
            data: { locale },
            headers: { Origin: ACCOUNTS_URL },
          })
        ).status(),
      ).toBe(200);
      await page.context().clearCookies();
    }

    await page.goto(`/login?lang=${locale}`);
    await page.getByRole('link', { name: texts.forgot }).click();
    await page.getByLabel(texts.login).fill(email.toUpperCase());
    await page.getByRole('button', { name: texts.send }).click();
    await expect(page.getByRole('status')).toContainText(texts.sent);

    const { mail, link } = await linkInMail(email, 'reset-password');
    expect(mail.subject).toContain(texts.resetSubject);
    expect(link).toContain(`lang=${locale}`);
    await openHydrated(page, link);
    await choosePassword(page, texts, texts.save, 'remembered-2');
    await expect(page.getByRole('status')).toHaveText(texts.resetDone);
    await signInWith(page, texts, username, 'remembered-2');

    // The link worked once.
    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText(texts.used);
  });

  test(`an invited customer chooses a password and signs in (${locale})`, async ({
    page,
    browser,
  }) => {
    const username = uniqueName(`invite${locale}`);
    const email = `${username}@example.com`;
    await signInAsAdmin(page, ACCOUNTS_URL);
    await openHydrated(page, `/admin/users?lang=${locale}`);
    await page.getByRole('button', { name: texts.addUser }).click();
    const dialog = page.getByRole('dialog', { name: texts.addUser });
    await dialog.getByLabel(texts.username).fill(username);
    await dialog.getByLabel(texts.fullName).fill(`Invited ${locale}`);
    await dialog.getByLabel(texts.email).fill(email);
    await dialog.getByRole('radio', { name: texts.inviteOption }).check();
    await expect(dialog.getByLabel(texts.password, { exact: true })).toHaveCount(0);
    // The invitation is written in the page's language unless the admin picks another.
    await expect(dialog.getByLabel(texts.inviteLanguage)).toHaveValue(locale);
    await dialog.getByRole('button', { name: texts.create }).click();
    await expect(page.getByRole('status').filter({ hasText: texts.inviteSent })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: username });
    await expect(row.getByText(texts.invited, { exact: true })).toBeVisible();

    const first = await linkInMail(email, 'invite');
    expect(first.mail.subject).toContain(texts.inviteSubject);
    // Sent again: the first link stops working.
    await row.getByRole('button', { name: texts.resend(username) }).click();
    await expect(page.getByRole('status').filter({ hasText: texts.resent })).toBeVisible();
    const second = await linkInMail(email, 'invite', 2);

    const invitee = await (await browser.newContext({ baseURL: ACCOUNTS_URL })).newPage();
    await invitee.goto(first.link);
    await expect(invitee.getByRole('alert')).toContainText(texts.inviteUsed);
    await openHydrated(invitee, second.link);
    await expect(invitee.getByText(username, { exact: true })).toBeVisible();
    await choosePassword(invitee, texts, texts.setPassword, 'my-own-choice-3');
    await expect(invitee.getByRole('status')).toHaveText(texts.inviteDone);
    await signInWith(invitee, texts, username, 'my-own-choice-3');
    await invitee.context().close();

    await page.reload();
    await expect(
      page.getByRole('row').filter({ hasText: username }).getByText(texts.invited, { exact: true }),
    ).toHaveCount(0);
  });
}
