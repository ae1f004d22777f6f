/**
 * The admin signs in once per portal, through the real form, before any test runs; the tests take the
 * session from the kept browser state (fixtures.ts: signInAsAdmin, adminRequest) instead of signing in
 * again. Tests that sign out, or that sign in as a user of their own, still do it themselves.
 */
import { test as setup } from '@playwright/test';
import {
  ACCOUNTS_URL,
  ADMIN_AREA_URL,
  E2E_URL,
  FRESHNESS_URL,
  HISTORY_URL,
  IMPORTS_URL,
  LOCATIONS_OFF_URL,
  MAGAYA_URL,
  OIDC_PORTAL_URL,
  PREALERTS_URL,
  PROVIDER_DOWN_URL,
  TOKENS_URL,
} from '../support/e2e-env';
import { ADMIN, adminStatePath, signIn } from './fixtures';

const PORTALS = [
  E2E_URL,
  LOCATIONS_OFF_URL,
  PROVIDER_DOWN_URL,
  ADMIN_AREA_URL,
  TOKENS_URL,
  OIDC_PORTAL_URL,
  HISTORY_URL,
  FRESHNESS_URL,
  ACCOUNTS_URL,
  PREALERTS_URL,
  MAGAYA_URL,
  IMPORTS_URL,
];

for (const origin of PORTALS) {
  setup(`the admin signs in on ${origin}`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: origin });
    await signIn(await context.newPage(), ADMIN.username, ADMIN.password);
    await context.storageState({ path: adminStatePath(origin) });
    await context.close();
  });
}
