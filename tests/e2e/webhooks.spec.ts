/**
 * Webhooks in Profile Settings, in English on a desktop and in Dutch on a phone: a customer adds an
 * endpoint, sees its signing secret once, sends a test event that a real receiver gets signed and sees
 * the attempt in the delivery log, sees why a redirected attempt failed in the page's language, turns
 * the endpoint off and on, and deletes it. The receiver is a plain HTTP server on 127.0.0.1: this
 * portal sets WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE.
 */
import type { Page, PlaywrightWorkerArgs } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { E2E_ADMIN_PASSWORD, WEBHOOKS_URL } from '../support/e2e-env';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { expect, openHydrated, test, uniqueName } from './fixtures';

test.use({ baseURL: WEBHOOKS_URL });

let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await startWebhookReceiver({ tls: false });
});

test.afterAll(async () => {
  await receiver.stop();
});

const PASSWORD = 'webhook-pass-1';

/** A new customer, made by the admin through the API; the page's browser signs in as them. */
async function signInAsNewCustomer(
  page: Page,
  playwright: PlaywrightWorkerArgs['playwright'],
): Promise<void> {
  const admin = await playwright.request.newContext({
    baseURL: WEBHOOKS_URL,
    extraHTTPHeaders: { Origin: WEBHOOKS_URL },
  });
  expect(
    (
      await admin.post('/api/auth/login', {
        data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
      })
    ).status(),
  ).toBe(200);
  const username = uniqueName('hooks');
  const created = await admin.post('/api/auth/users', {
    data: { username, password: PASSWORD, role: 'viewer' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();
  const signedIn = await page.context().request.post(`${WEBHOOKS_URL}/api/auth/login`, {
    data: { username, password: PASSWORD },
    headers: { Origin: WEBHOOKS_URL },
  });
  expect(signedIn.status()).toBe(200);
}

/** The texts the journey looks for, in each language (messages/*.json). */
const TEXTS = {
  en: {
    section: 'Webhooks',
    manage: 'Manage webhooks',
    url: 'Endpoint address (URL)',
    prealert: /^A pre-alert was matched to a receipt/,
    add: 'Add endpoint',
    noEvents: 'Choose at least one event',
    secret: 'Signing secret',
    once: 'it is shown only once',
    saved: 'I have saved it',
    on: 'On',
    off: 'Turned off',
    sendTest: (url: string) => `Send a test event to ${url}`,
    testSent: 'Test event sent; its attempt appears in the delivery log',
    log: (url: string) => `Delivery log of ${url}`,
    logTitle: 'Delivery log',
    delivered: 'Delivered',
    failed: 'Failed',
    redirected: (to: string) => `Redirect to ${to} not followed`,
    turnOff: (url: string) => `Turn off ${url}`,
    turnOn: (url: string) => `Turn on ${url}`,
    remove: (url: string) => `Delete ${url}`,
    removeTitle: 'Delete webhook endpoint',
    confirm: 'Delete',
    close: 'Close',
    empty: 'You have no webhook endpoints yet.',
  },
  nl: {
    section: 'Webhooks',
    manage: 'Webhooks beheren',
    url: 'Adres van het endpoint (URL)',
    prealert: /^Een vooraanmelding is aan een ontvangstbewijs gekoppeld/,
    add: 'Endpoint toevoegen',
    noEvents: 'Kies minstens één gebeurtenis',
    secret: 'Ondertekeningssleutel',
    once: 'hij wordt maar één keer getoond',
    saved: 'Ik heb hem bewaard',
    on: 'Aan',
    off: 'Uitgezet',
    sendTest: (url: string) => `Een testbericht sturen naar ${url}`,
    testSent: 'Testbericht verstuurd; de poging verschijnt in het afleverlogboek',
    log: (url: string) => `Afleverlogboek van ${url}`,
    logTitle: 'Afleverlogboek',
    delivered: 'Afgeleverd',
    failed: 'Mislukt',
    redirected: (to: string) => `Doorverwijzing naar ${to} niet gevolgd`,
    turnOff: (url: string) => `${url} uitzetten`,
    turnOn: (url: string) => `${url} aanzetten`,
    remove: (url: string) => `${url} verwijderen`,
    removeTitle: 'Webhook-endpoint verwijderen',
    confirm: 'Verwijderen',
    close: 'Sluiten',
    empty: 'U hebt nog geen webhook-endpoints.',
  },
};

async function manageWebhooks(
  page: Page,
  texts: (typeof TEXTS)['en'],
  path: string,
): Promise<void> {
  const url = `${receiver.url}${path}`;
  await openHydrated(page, '/profile');
  await page
    .getByRole('region', { name: texts.section })
    .getByRole('link', { name: texts.manage })
    .click();
  await expect(page).toHaveURL(/\/profile\/webhooks$/);
  await expect(page.getByRole('heading', { name: texts.section, level: 1 })).toBeVisible();
  await openHydrated(page, '/profile/webhooks');
  await expect(page.getByText(texts.empty)).toBeVisible();

  // No event chosen: refused in the form, in the page's language.
  await page.getByLabel(texts.url).fill(url);
  for (const box of await page.getByRole('checkbox').all()) await box.uncheck();
  await page.getByRole('button', { name: texts.add }).click();
  await expect(page.getByText(texts.noEvents)).toBeVisible();

  await page.getByRole('checkbox', { name: texts.prealert }).check();
  await page.getByRole('button', { name: texts.add }).click();
  const secretField = page.getByRole('textbox', { name: texts.secret });
  await expect(secretField).toHaveValue(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await expect(page.getByText(texts.once)).toBeVisible();
  const secret = await secretField.inputValue();
  await page.getByRole('button', { name: texts.saved }).click();
  await expect(secretField).toHaveCount(0);
  const list = page.getByRole('list', { name: /endpoints/i });
  await expect(list.getByText(url, { exact: true })).toBeVisible();
  await expect(list.getByText(texts.on, { exact: true })).toBeVisible();

  // Shown once: not after a reload either.
  await openHydrated(page, '/profile/webhooks');
  expect(await page.content()).not.toContain(secret);

  const before = receiver.requests.length;
  await page.getByRole('button', { name: texts.sendTest(url) }).click();
  await expect(page.getByText(texts.testSent)).toBeVisible();
  await expect.poll(() => receiver.requests.length).toBe(before + 1);
  const request = receiver.requests.at(-1)!;
  expect(request.path).toBe(path);
  expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({
    type: 'webhook.test',
  });

  await page.getByRole('button', { name: texts.log(url) }).click();
  const log = page.getByRole('dialog', { name: texts.logTitle });
  const attempt = log.getByRole('listitem').filter({ hasText: request.headers['webhook-id']! });
  await expect(attempt).toBeVisible();
  await expect(attempt.getByText(texts.delivered, { exact: true })).toBeVisible();
  await expect(attempt.getByText('HTTP 200', { exact: true })).toBeVisible();
  await expect(attempt.getByText('webhook.test', { exact: true })).toBeVisible();
  await log.getByRole('button', { name: texts.close }).click();
  await expect(log).toBeHidden();

  // A failed attempt says why, in the page's language.
  const movedTo = `${receiver.url}/moved`;
  receiver.answers.push({ status: 302, headers: { location: movedTo } });
  await page.getByRole('button', { name: texts.sendTest(url) }).click();
  await expect.poll(() => receiver.requests.length).toBe(before + 2);
  await page.getByRole('button', { name: texts.log(url) }).click();
  const failed = log
    .getByRole('listitem')
    .filter({ hasText: receiver.requests.at(-1)!.headers['webhook-id']! });
  await expect(failed.getByText(texts.failed, { exact: true })).toBeVisible();
  await expect(failed.getByText(texts.redirected(movedTo), { exact: true })).toBeVisible();
  await log.getByRole('button', { name: texts.close }).click();
  await expect(log).toBeHidden();

  await page.getByRole('button', { name: texts.turnOff(url) }).click();
  await expect(list.getByText(texts.off, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: texts.turnOn(url) }).click();
  await expect(list.getByText(texts.on, { exact: true })).toBeVisible();

  await page.getByRole('button', { name: texts.remove(url) }).click();
  const confirm = page.getByRole('dialog', { name: texts.removeTitle });
  await expect(confirm.getByText(url)).toBeVisible();
  await confirm.getByRole('button', { name: texts.confirm, exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(texts.empty)).toBeVisible();
  await openHydrated(page, '/profile/webhooks');
  await expect(page.getByText(texts.empty)).toBeVisible();
}

test('a customer manages a webhook endpoint in English', async ({ page, playwright }) => {
  await signInAsNewCustomer(page, playwright);
  await manageWebhooks(page, TEXTS.en, '/english');
});

test.describe('on a phone, in Dutch', () => {
  test.use({
    locale: 'nl-NL',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });

  test('a customer manages a webhook endpoint in Dutch', async ({ page, playwright }) => {
    await signInAsNewCustomer(page, playwright);
    await manageWebhooks(page, TEXTS.nl, '/dutch');
  });
});
