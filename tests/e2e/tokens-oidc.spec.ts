/**
 * Token Management against an independent OAuth2 server (oidc-provider, tests/support/oidc-server.ts)
 * found by discovery: the popup at its consent page, Deny, a forged state, a refresh token the server
 * revoked (Reconnect required, on the screen and the dashboard, and Reconnect one click away), a
 * server that issues no refresh token, and Clear Tokens revoking at the server. The tests share the
 * one connection of their portal, so they run in order and each leaves it working.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { OIDC_PORTAL_URL, OIDC_SERVER_URL } from '../support/e2e-env';
import { expect, openHydrated, signInAsAdmin, test } from './fixtures';

test.use({ baseURL: OIDC_PORTAL_URL });

/** The English texts (messages/en.json; this browser asks for no other language). */
const CONNECTION_TEXTS = {
  unknownRefreshExpiry: 'The provider did not say when this token expires.',
  enterExpiryManually: 'If you know its lifetime, enter it with the tokens under Manual Entry.',
  reconnectRequired: 'Reconnect required',
  reconnectExplained:
    "The provider no longer accepts the portal's refresh token, so receipts are not updated. Sign in at the provider again to restore the connection.",
  dashboardNotice:
    'The connection to the logistics provider must be renewed: receipts are not updated until an administrator reconnects.',
  openTokenManagement: 'Open Token Management',
  reconnect: 'Reconnect',
  noRefreshToken:
    'The provider gave no refresh token, so the connection stops when the access token expires. If the provider issues refresh tokens for offline_access, add it to PROVIDER_SCOPE and connect again.',
  cleared: 'All tokens cleared successfully',
} as const;

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page, OIDC_PORTAL_URL);
  await openHydrated(page, '/admin/tokens');
  await expect(page.getByRole('heading', { name: 'Token Management', level: 1 })).toBeVisible();
});

const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const fact = (region: Locator, label: string) => region.locator(`dt:text-is("${label}") + dd`);

async function serverControl(
  request: APIRequestContext,
  action: string,
): Promise<Record<string, number>> {
  const response =
    action === 'counts'
      ? await request.get(`${OIDC_SERVER_URL}/test-control/counts`)
      : await request.post(`${OIDC_SERVER_URL}/test-control/${action}`);
  expect(response.status()).toBe(200);
  return response.json();
}

/** Clicks `start`, then decides on the server's consent page in the popup; resolves once the popup has closed. */
async function decideInPopup(
  page: Page,
  start: Locator,
  decision: 'Authorize' | 'Deny',
): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await start.click();
  const popup = await popupOpened;
  await popup.waitForURL(`${OIDC_SERVER_URL}/interaction/**`);
  await expect(popup.getByRole('heading', { name: 'Authorize Freight Portal' })).toBeVisible();
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: decision }).click();
  await closed;
}

async function connect(page: Page): Promise<void> {
  const flow = page.getByRole('button', { name: 'OAuth2 Flow' });
  if (await flow.isVisible()) await flow.click();
  await decideInPopup(
    page,
    page.getByRole('button', { name: 'Get Access & Refresh Token' }),
    'Authorize',
  );
  await expect(
    page.getByRole('status').filter({ hasText: 'OAuth2 tokens acquired and stored successfully!' }),
  ).toBeVisible();
}

test("the popup signs in at the discovered server; the refresh token's unknown expiry is said as it is", async ({
  page,
}) => {
  await connect(page);
  await expect(fact(card(page, 'Access Token'), 'Status')).toHaveText('Valid');
  const refreshCard = card(page, 'Refresh Token');
  await expect(fact(refreshCard, 'Status')).toHaveText('Valid');
  await expect(fact(refreshCard, 'Expires')).toHaveText('Unknown');
  await expect(refreshCard.getByRole('note')).toHaveText(
    `${CONNECTION_TEXTS.unknownRefreshExpiry} ${CONNECTION_TEXTS.enterExpiryManually}`,
  );
  await expect(fact(card(page, 'Additional Information'), 'Auto-Refresh')).toHaveText('Available');
});

test('Deny at the server shows its reason; a forged state is refused', async ({ page }) => {
  await page.getByRole('button', { name: 'OAuth2 Flow' }).click();
  await decideInPopup(
    page,
    page.getByRole('button', { name: 'Get Access & Refresh Token' }),
    'Deny',
  );
  await expect(
    page.getByRole('alert').filter({
      hasText: 'OAuth2 authorization failed: The user denied the authorization request',
    }),
  ).toBeVisible();
  await expect(fact(card(page, 'Access Token'), 'Status')).toHaveText('Valid');

  await page.goto('/admin/tokens/callback?code=forged-code&state=forged-state');
  await expect(page.getByRole('heading', { name: 'Authorization failed' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(
    'This authorization is unknown, expired, already used or was started in another session.',
  );
});

test('a refresh token revoked at the server: Reconnect required on the screen and the dashboard, and Reconnect is one click', async ({
  page,
  request,
}) => {
  await serverControl(request, 'revoke-refresh-tokens');
  await page.getByRole('button', { name: 'Refresh Token' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /^The provider refused the refresh token: / }),
  ).toBeVisible();

  const reconnect = page
    .getByRole('alert')
    .filter({ has: page.getByRole('heading', { name: CONNECTION_TEXTS.reconnectRequired }) });
  await expect(reconnect).toContainText(CONNECTION_TEXTS.reconnectExplained);
  await expect(fact(card(page, 'Refresh Token'), 'Status')).toHaveText(
    CONNECTION_TEXTS.reconnectRequired,
  );
  await expect(page.getByTestId('refresh-token-icon')).toHaveAttribute('data-tone', 'error');
  await expect(page.getByRole('button', { name: 'Refresh Token' })).toHaveCount(0);
  await expect(fact(card(page, 'Additional Information'), 'Auto-Refresh')).toHaveText(
    'Unavailable',
  );

  await openHydrated(page, '/dashboard');
  const notice = page.getByRole('alert').filter({ hasText: CONNECTION_TEXTS.dashboardNotice });
  await expect(notice).toBeVisible();
  await notice.getByRole('link', { name: CONNECTION_TEXTS.openTokenManagement }).click();
  await expect(page).toHaveURL(/\/admin\/tokens$/);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);

  await decideInPopup(
    page,
    page.getByRole('alert').getByRole('button', { name: CONNECTION_TEXTS.reconnect }),
    'Authorize',
  );
  await expect(
    page.getByRole('status').filter({ hasText: 'OAuth2 tokens acquired and stored successfully!' }),
  ).toBeVisible();
  await expect(reconnect).toHaveCount(0);
  await expect(fact(card(page, 'Refresh Token'), 'Status')).toHaveText('Valid');

  await openHydrated(page, '/dashboard');
  await expect(page.getByText(CONNECTION_TEXTS.dashboardNotice)).toHaveCount(0);
});

test('a server that issues no refresh token: the tokens are stored and the screen warns', async ({
  page,
  request,
}) => {
  await serverControl(request, 'refresh-tokens-off');
  try {
    await connect(page);
    await expect(
      page.getByRole('note').filter({ hasText: CONNECTION_TEXTS.noRefreshToken }),
    ).toBeVisible();
    await expect(fact(card(page, 'Refresh Token'), 'Status')).toHaveText('Not Set');
    await expect(fact(card(page, 'Access Token'), 'Status')).toHaveText('Valid');
  } finally {
    await serverControl(request, 'refresh-tokens-on');
  }
  await connect(page);
  await expect(page.getByText(CONNECTION_TEXTS.noRefreshToken)).toHaveCount(0);
});

test('Clear Tokens revokes the refresh token at the server, then deletes the tokens', async ({
  page,
  request,
}) => {
  const before = await serverControl(request, 'counts');
  await page.getByRole('button', { name: 'Clear Tokens' }).click();
  await page
    .getByRole('dialog', { name: 'Clear Tokens' })
    .getByRole('button', { name: 'Clear Tokens' })
    .click();
  await expect(
    page.getByRole('status').filter({ hasText: CONNECTION_TEXTS.cleared }),
  ).toBeVisible();
  for (const title of ['Access Token', 'Refresh Token'])
    await expect(fact(card(page, title), 'Status')).toHaveText('Not Set');
  expect((await serverControl(request, 'counts')).liveRefreshTokens).toBe(
    before.liveRefreshTokens! - 1,
  );

  await connect(page);
});
