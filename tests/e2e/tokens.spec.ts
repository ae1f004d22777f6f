/**
 * Token Management: the OAuth2 popup against the built-in sandbox provider (authorize, deny,
 * cancel), manual entry, refresh and clearing, on a portal of their own (clearing cuts it off the
 * provider). The tests change its one provider connection, so they run one after another and each
 * leaves working tokens behind.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { TOKENS_URL } from '../support/e2e-env';
import { ADMIN, expect, openHydrated, signIn, signInAsAdmin, test } from './fixtures';

test.use({ baseURL: TOKENS_URL });

/** The English texts (messages/en.json; this browser asks for no other language). */
const CONNECTION_TEXTS = {
  unknownRefreshExpiry: 'The provider did not say when this token expires.',
} as const;

test.describe.configure({ mode: 'serial' });

const CALLBACK_URL = `${TOKENS_URL}/admin/tokens/callback`;

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, TOKENS_URL);
  await openHydrated(page, '/admin/tokens');
  await expect(page.getByRole('heading', { name: 'Token Management', level: 1 })).toBeVisible();
});

const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
/** The value beside a label in a card's facts. */
const fact = (region: Locator, label: string) => region.locator(`dt:text-is("${label}") + dd`);

/** Both cards Valid with green icons; `titles` are the cards whose expiry is known. */
async function expectConnected(
  page: Page,
  source: string,
  titles = ['Access Token', 'Refresh Token'],
) {
  for (const title of ['Access Token', 'Refresh Token'])
    await expect(fact(card(page, title), 'Status')).toHaveText('Valid');
  for (const title of titles) {
    const region = card(page, title);
    await expect(fact(region, 'Time Remaining')).toHaveText(/^(\d+h \d+m|\d+m)$/);
    await expect(fact(region, 'Expires')).toHaveText(
      /^\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2}\s?[AP]M$/,
    );
  }
  await expect(page.getByTestId('access-token-icon')).toHaveAttribute('data-tone', 'success');
  await expect(page.getByTestId('refresh-token-icon')).toHaveAttribute('data-tone', 'success');
  const info = card(page, 'Additional Information');
  await expect(fact(info, 'Source')).toHaveText(source);
  await expect(fact(info, 'Last Updated')).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{2}, /);
  await expect(fact(info, 'Auto-Refresh')).toHaveText('Available');
}

/** Starts the OAuth2 flow from the open panel; resolves with the popup once the provider's consent page shows. */
async function openLoginPopup(page: Page): Promise<Page> {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Get Access & Refresh Token' }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/sandbox\/oauth\/authorize\?/);
  await expect(popup.getByRole('heading', { name: /^Authorize / })).toBeVisible();
  return popup;
}

async function authorizeThroughPopup(page: Page): Promise<void> {
  if (await page.getByRole('button', { name: 'OAuth2 Flow' }).isVisible())
    await page.getByRole('button', { name: 'OAuth2 Flow' }).click();
  const popup = await openLoginPopup(page);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  await expect(
    page.getByRole('status').filter({ hasText: 'OAuth2 tokens acquired and stored successfully!' }),
  ).toBeVisible();
}

/** A working token pair straight from the sandbox provider, as an admin would copy it from elsewhere. */
async function sandboxTokenPair(
  request: APIRequestContext,
): Promise<{ accessToken: string; refreshToken: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const consent = await request.post('/sandbox/oauth/authorize', {
    headers: { Origin: TOKENS_URL },
    form: {
      response_type: 'code',
      client_id: 'freight-portal',
      redirect_uri: CALLBACK_URL,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'manual-entry',
      scope: 'receipts',
      decision: 'authorize',
    },
    maxRedirects: 0,
  });
  const code = new URL(consent.headers()['location']!).searchParams.get('code')!;
  const token = await request.post('/sandbox/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK_URL,
      client_id: 'freight-portal',
      code_verifier: verifier,
    },
  });
  expect(token.status()).toBe(200);
  const body = await token.json();
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

test('the OAuth2 popup opens centred at 500×700, and Authorize stores the tokens as oauth2', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'OAuth2 Flow' }).click();
  await expect(page.getByRole('button', { name: 'Hide OAuth2' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(page.getByText('allow popups for this site')).toBeVisible();

  const popup = await openLoginPopup(page);
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /^(Opening login window|Waiting for authorization)\.\.\.$/ }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get Access & Refresh Token' })).toBeDisabled();
  expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([500, 700]);

  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  await expect(
    page.getByRole('status').filter({ hasText: 'OAuth2 tokens acquired and stored successfully!' }),
  ).toBeVisible();
  await expectConnected(page, 'oauth2');
  await expect(page.getByRole('button', { name: 'Get Access & Refresh Token' })).toBeEnabled();

  await page.getByRole('button', { name: 'Hide OAuth2' }).click();
  await expect(page.getByRole('button', { name: 'Get Access & Refresh Token' })).toHaveCount(0);
});

test('denying at the provider shows its reason and keeps the tokens', async ({ page }) => {
  const lastUpdated = await fact(
    card(page, 'Additional Information'),
    'Last Updated',
  ).textContent();
  await page.getByRole('button', { name: 'OAuth2 Flow' }).click();
  const popup = await openLoginPopup(page);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Deny' }).click();
  await closed;
  await expect(
    page.getByRole('alert').filter({
      hasText: 'OAuth2 authorization failed: The user denied the authorization request',
    }),
  ).toBeVisible();
  await expect(fact(card(page, 'Additional Information'), 'Last Updated')).toHaveText(lastUpdated!);
  await expectConnected(page, 'oauth2');
});

test('closing the popup cancels the flow, and a message from another window is ignored', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'OAuth2 Flow' }).click();
  const popup = await openLoginPopup(page);
  // The expected type, but not from the popup: the flow keeps waiting.
  await page.evaluate(() =>
    window.postMessage(
      {
        type: 'oauth2_success',
        data: { source: 'oauth2', accessTokenExpiry: null, refreshTokenExpiry: null },
      },
      '*',
    ),
  );
  await expect(
    page.getByRole('status').filter({ hasText: 'Waiting for authorization...' }),
  ).toBeVisible();
  await expect(page.getByText('OAuth2 tokens acquired and stored successfully!')).toHaveCount(0);

  await popup.close();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Authorization was cancelled' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get Access & Refresh Token' })).toBeEnabled();
});

test('manual entry: masked values, the form rules, Update Tokens, then a refresh', async ({
  page,
}) => {
  // As the signed-in admin: the sandbox's consent is for the portal's admins.
  const pair = await sandboxTokenPair(page.context().request);

  await page.getByRole('button', { name: 'Manual Entry' }).click();
  const form = page.getByRole('region', { name: 'Update Tokens' });
  const accessField = form.getByLabel('Access Token');
  const refreshField = form.getByLabel('Refresh Token', { exact: true });
  const expiryField = form.getByLabel('Refresh Token Expiry (seconds, optional)');
  const submit = form.getByRole('button', { name: 'Update Tokens' });
  await expect(page.getByRole('button', { name: 'Hide Form' })).toBeVisible();
  await expect(expiryField).toHaveAttribute('min', '300');
  await expect(expiryField).toHaveAttribute('max', '31536000');

  await expect(submit).toBeDisabled();
  await accessField.fill(pair.accessToken);
  await expect(submit).toBeDisabled();
  await refreshField.fill('   ');
  await expect(submit).toBeDisabled();
  await refreshField.fill(pair.refreshToken);
  await expect(submit).toBeEnabled();

  const masking = (field: Locator) =>
    field.evaluate((element) =>
      getComputedStyle(element).getPropertyValue('-webkit-text-security'),
    );
  expect(await masking(accessField)).toBe('disc');
  expect(await masking(refreshField)).toBe('disc');
  await form.getByLabel('Show token values').check();
  expect(await masking(accessField)).toBe('none');
  expect(await masking(refreshField)).toBe('none');

  await expiryField.fill('100');
  await submit.click();
  await expect(form.getByRole('alert')).toHaveText(
    'Refresh token expiry must be between 300 and 31536000 seconds',
  );
  await expiryField.fill('-5');
  await submit.click();
  await expect(form.getByRole('alert')).toHaveText(
    'Refresh token expiry must be a positive number',
  );
  await expiryField.fill('');

  await submit.click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Tokens updated successfully' }),
  ).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Manual Entry' })).toBeVisible();
  await expectConnected(page, 'manual', ['Access Token']);
  const refreshCard = card(page, 'Refresh Token');
  await expect(fact(refreshCard, 'Expires')).toHaveText('Unknown');
  await expect(fact(refreshCard, 'Time Remaining')).toHaveText('Unknown');
  await expect(refreshCard.getByRole('note')).toContainText(CONNECTION_TEXTS.unknownRefreshExpiry);
  await expect(page.getByText(pair.accessToken)).toHaveCount(0);

  await page.getByRole('button', { name: 'Refresh Token' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Token refreshed successfully' }),
  ).toBeVisible();
  // The provider's answer to the refresh tells the refresh token's lifetime.
  await expectConnected(page, 'manual');
  await expect(refreshCard.getByRole('note')).toHaveCount(0);

  // Cancel closes the form and forgets what was typed.
  await page.getByRole('button', { name: 'Manual Entry' }).click();
  await page
    .getByRole('region', { name: 'Update Tokens' })
    .getByLabel('Access Token')
    .fill('half-typed');
  await page
    .getByRole('region', { name: 'Update Tokens' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(page.getByRole('region', { name: 'Update Tokens' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Manual Entry' }).click();
  await expect(
    page.getByRole('region', { name: 'Update Tokens' }).getByLabel('Access Token'),
  ).toHaveValue('');
});

test('clearing asks first, then every card says Not Set; the OAuth2 flow connects the portal again', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Clear Tokens' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear Tokens' });
  await expect(dialog).toContainText(
    'Are you sure you want to clear all tokens? This will require manual token entry to restore API access.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(fact(card(page, 'Access Token'), 'Status')).not.toHaveText('Not Set');

  await page.getByRole('button', { name: 'Clear Tokens' }).click();
  await dialog.getByRole('button', { name: 'Clear Tokens' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'All tokens cleared successfully' }),
  ).toHaveClass(/alert-warning/);
  for (const title of ['Access Token', 'Refresh Token'])
    await expect(fact(card(page, title), 'Status')).toHaveText('Not Set');
  const info = card(page, 'Additional Information');
  await expect(fact(info, 'Source')).toHaveText('Unknown');
  await expect(fact(info, 'Last Updated')).toHaveText('Unknown');
  await expect(fact(info, 'Auto-Refresh')).toHaveText('Unavailable');
  await expect(page.getByRole('button', { name: 'Refresh Token' })).toHaveCount(0);

  await authorizeThroughPopup(page);
  await expectConnected(page, 'oauth2');
});

test('a sign-in window sent to another page of the portal ends the flow at once, with the reason', async ({
  page,
}) => {
  if (await page.getByRole('button', { name: 'OAuth2 Flow' }).isVisible())
    await page.getByRole('button', { name: 'OAuth2 Flow' }).click();
  const popup = await openLoginPopup(page);
  // The session ends while the provider's page is open: Authorize then lands on the portal's sign-in page.
  await page.context().clearCookies();
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  await expect(
    page.getByRole('alert').filter({
      hasText: "The sign-in window opened /login of the portal instead of the provider's sign-in.",
    }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get Access & Refresh Token' })).toBeEnabled();
});

test('opened at another address than PUBLIC_URL, Token Management says where to go before any popup', async ({
  browser,
}) => {
  const elsewhere = TOKENS_URL.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: elsewhere });
  const page = await context.newPage();
  await signIn(page, ADMIN.username, ADMIN.password);
  await openHydrated(page, '/admin/tokens');
  if (await page.getByRole('button', { name: 'OAuth2 Flow' }).isVisible())
    await page.getByRole('button', { name: 'OAuth2 Flow' }).click();
  const warning = page
    .getByRole('alert')
    .filter({ hasText: `The provider sends you back to ${TOKENS_URL} after signing in` });
  await expect(warning).toBeVisible();
  await expect(warning.getByRole('link', { name: `${TOKENS_URL}/admin/tokens` })).toHaveAttribute(
    'href',
    `${TOKENS_URL}/admin/tokens`,
  );
  await expect(page.getByRole('button', { name: 'Get Access & Refresh Token' })).toBeDisabled();
  await context.close();
});
