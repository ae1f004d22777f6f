/**
 * The admin signs in once per portal, before any test runs; the tests take the session from the kept
 * state (fixtures.ts: signInAsAdmin, adminRequest) instead of signing in again. The sign-in is the
 * form's own call (`POST /api/auth/login`), without a browser: the form itself is login.spec.ts's, and
 * twelve form sign-ins held every test back by half a minute. Tests that sign out, or that sign in as a
 * user of their own, still do it themselves.
 */
import { expect, test as setup } from '@playwright/test';
import { SESSION_COOKIE } from '../../src/shared/constants';
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
import { ADMIN, adminStatePath } from './fixtures';

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
  setup(`the admin signs in on ${origin}`, async ({ playwright }) => {
    const request = await playwright.request.newContext({
      baseURL: origin,
      extraHTTPHeaders: { Origin: origin },
    });
    const answer = await request.post('/api/auth/login', {
      data: { username: ADMIN.username, password: ADMIN.password },
    });
    expect(answer.status()).toBe(200);
    const state = await request.storageState({ path: adminStatePath(origin) });
    expect(state.cookies.map((cookie) => cookie.name)).toContain(SESSION_COOKIE);
    await request.dispose();
  });
}
