/**
 * Passkeys in the browser tests: Chromium's virtual authenticator (the DevTools protocol's WebAuthn
 * domain, through Playwright's CDP session) stands in for a phone that holds discoverable passkeys and
 * verifies its user; and, where a test only needs a passkey to exist, one added through the API by the
 * software authenticator of the API tests.
 */
import type { APIRequestContext, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { TestAuthenticator } from '../support/passkey-authenticator';
import { expect } from './fixtures';

/** Gives the page's browser an authenticator with user verification that keeps resident keys, and answers every prompt as its user. */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const client = await page.context().newCDPSession(page);
  await client.send('WebAuthn.enable');
  await client.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** A request context signed in as the user on the portal at `origin`. */
export async function signedInRequest(
  playwright: PlaywrightWorkerArgs['playwright'],
  origin: string,
  user: { username: string; password: string },
): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({
    baseURL: origin,
    extraHTTPHeaders: { Origin: origin },
  });
  const answer = await request.post('/api/auth/login', { data: user });
  expect(answer.status(), await answer.text()).toBe(200);
  return request;
}

/** Adds a passkey named `name` for the user of the signed-in `request`, made by a software authenticator for `origin`. */
export async function addPasskeyByApi(
  request: APIRequestContext,
  origin: string,
  password: string,
  name: string,
): Promise<void> {
  const options = await request.post('/api/auth/passkeys/registration/options', {
    data: { password },
  });
  expect(options.status(), await options.text()).toBe(200);
  const authenticator = new TestAuthenticator(new URL(origin).hostname, origin);
  const credential = authenticator.register((await options.json()).data.options);
  const added = await request.post('/api/auth/passkeys/registration/verify', {
    data: { credential, name },
  });
  expect(added.status(), await added.text()).toBe(201);
}
