/**
 * Passkeys in Chromium, with the DevTools protocol's virtual authenticator: adding one in Profile
 * Settings, signing in without a username (the authenticator app's code skipped), a replayed assertion
 * refused, and a removed passkey signing nobody in; on SQLite (the passkeys portal of the run) and on
 * PostgreSQL (a portal this file starts). Both portals' PUBLIC_URL is localhost: an IP address cannot
 * be a relying party ID.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, PlaywrightWorkerArgs } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { E2E_ADMIN_PASSWORD, PASSKEYS_POSTGRES_PORT, PASSKEYS_URL } from '../support/e2e-env';
import { ADMIN_PASSWORD, startPortal, type Portal } from '../support/portal';
import {
  createPostgresDatabase,
  DEFAULT_TEST_DATABASE_URL,
  dropPostgresDatabase,
} from '../support/test-database';
import { stallLimit } from '../support/test-pace';
import { expect, openHydrated, signIn, test, uniqueName } from './fixtures';
import { addVirtualAuthenticator, signedInRequest } from './passkey-steps';

const PASSWORD = 'passkey-pass-1';
const POSTGRES_URL = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;

/** Adding, signing in, the code skipped, a replay refused, removal: one user's journey on the portal at `origin`. */
async function journey(
  browser: Browser,
  playwright: PlaywrightWorkerArgs['playwright'],
  origin: string,
  adminPassword: string,
): Promise<void> {
  const admin = await signedInRequest(playwright, origin, {
    username: 'admin',
    password: adminPassword,
  });
  const user = { username: uniqueName('passkey'), password: PASSWORD };
  expect(
    (await admin.post('/api/auth/users', { data: { ...user, role: 'viewer' } })).status(),
  ).toBe(201);
  await admin.dispose();

  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await addVirtualAuthenticator(page);

  // Registration, from Profile Settings.
  await signIn(page, user.username, user.password);
  await openHydrated(page, '/profile');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  await section.getByLabel('Your password').fill(user.password);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('status')).toHaveText('Passkey "Passkey on this device" added');
  const list = section.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await list.getByRole('button', { name: 'Rename the passkey Passkey on this device' }).click();
  await list.getByLabel('Name').fill('Work laptop');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByText('Work laptop', { exact: true })).toBeVisible();

  // The authenticator app turned on besides (which ends the browser's session): a passkey still asks for no code.
  const request = await signedInRequest(playwright, origin, user);
  const { secret } = (await (await request.post('/api/auth/2fa/setup')).json()).data;
  const code = TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  expect((await request.post('/api/auth/2fa/enable', { data: { code } })).status()).toBe(200);
  await request.dispose();
  await context.clearCookies();

  // Sign-in without a username, from the username field's autofill (conditional mediation): the virtual
  // authenticator answers that request as soon as the page makes it, as a person picking the passkey would.
  // The field offers passkeys as served (the page itself leaves for the dashboard as soon as the
  // authenticator answers, which may be before a check of the field could see it).
  expect(await (await page.request.get('/login')).text()).toMatch(
    /<input[^>]*autocomplete="username webauthn"/,
  );
  const verified = page.waitForRequest((sent) =>
    sent.url().endsWith('/api/auth/passkeys/sign-in/verify'),
  );
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  const assertion = (await verified).postDataJSON();

  // The same assertion again, from another browser and from this one: refused, and no session.
  const stranger = await playwright.request.newContext({
    baseURL: origin,
    extraHTTPHeaders: { Origin: origin },
  });
  const replayed = await stranger.post('/api/auth/passkeys/sign-in/verify', { data: assertion });
  expect(replayed.status()).toBe(401);
  expect((await stranger.get('/api/auth/profile')).status()).toBe(401);
  await stranger.dispose();
  expect(
    (
      await page.request.post('/api/auth/passkeys/sign-in/verify', {
        data: assertion,
        headers: { Origin: origin },
      })
    ).status(),
  ).toBe(401);

  // The button, in a browser without the autofill: the same sign-in.
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
  await context.clearCookies();
  await openHydrated(page, '/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Removal: the passkey signs nobody in from then on.
  await openHydrated(page, '/profile');
  await expect(list.getByText('Work laptop', { exact: true })).toBeVisible();
  await list.getByRole('button', { name: 'Remove the passkey Work laptop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  await context.clearCookies();
  await openHydrated(page, '/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(
    page.getByText(
      'Signing in with this passkey did not work. Try again, or sign in with your password.',
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
}

test.describe('passkeys on SQLite', () => {
  test('adding one, signing in without a username and without the code, a replay refused, and removal', async ({
    browser,
    playwright,
  }) => {
    await journey(browser, playwright, PASSKEYS_URL, E2E_ADMIN_PASSWORD);
  });
});

test.describe('passkeys on PostgreSQL', () => {
  const database = `portal_e2e_passkeys_${randomBytes(6).toString('hex')}`;
  let portal: Portal | undefined;

  test.beforeAll(async () => {
    test.setTimeout(stallLimit(180_000));
    const databaseUrl = await createPostgresDatabase(POSTGRES_URL, database);
    portal = await startPortal(
      {
        PUBLIC_URL: `http://localhost:${PASSKEYS_POSTGRES_PORT}`,
        DATABASE_URL: databaseUrl,
        SYNC_INTERVAL_SECONDS: '3600',
        SANDBOX_RECEIPTS: '20',
      },
      { port: PASSKEYS_POSTGRES_PORT },
    );
  });

  test.afterAll(async () => {
    await portal?.stop();
    await dropPostgresDatabase(POSTGRES_URL, database);
  });

  test('adding one, signing in without a username and without the code, a replay refused, and removal', async ({
    browser,
    playwright,
  }) => {
    await journey(
      browser,
      playwright,
      `http://localhost:${PASSKEYS_POSTGRES_PORT}`,
      ADMIN_PASSWORD,
    );
  });
});
