/**
 * A customer who follows a link from a status e-mail while signed out goes to /login, and after
 * signing in lands on the page the link named, not on the dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ADMIN_PASSWORD } from '../support/portal';
import { ApiClient } from '../support/api-client';
import { allReceipts, signedInAdmin, waitForMirror } from '../support/api-steps';

let portal: InProcessPortal;
let receiptPath: string;

beforeAll(async () => {
  portal = await startInProcessPortal({ SANDBOX_RECEIPTS: '20' });
  const admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  receiptPath = `/receipts/${(await allReceipts(admin))[0]!.id}`;
});

afterAll(async () => {
  await portal?.stop();
});

const cookiePair = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0];

function signInByForm(cookie: string | undefined) {
  return fetch(`${portal.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: portal.url,
      ...(cookie && { Cookie: cookie }),
    },
  });
}

describe('returning after sign-in', () => {
  it('when a signed-out visitor opens a receipt page, then /login, and signing in (no JavaScript) leads back to that receipt, once', async () => {
    const visit = await fetch(`${portal.url}${receiptPath}?from=mail`, { redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('/login');
    const remembered = cookiePair(visit, 'portal_return_to');
    expect(decodeURIComponent(remembered!.slice('portal_return_to='.length))).toBe(
      `${receiptPath}?from=mail`,
    );

    const loginPage = await (
      await fetch(`${portal.url}/login`, { headers: { Cookie: remembered! } })
    ).text();
    expect(loginPage).toContain(`data-destination="${receiptPath}?from=mail"`);

    const signedIn = await signInByForm(remembered);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(`${receiptPath}?from=mail`);
    expect(
      signedIn.headers
        .getSetCookie()
        .some((line) => /^portal_return_to=.*Expires=Thu, 01 Jan 1970/i.test(line)),
    ).toBe(true);
  });

  it('when nothing was interrupted, then sign-in goes to the dashboard', async () => {
    const signedIn = await signInByForm(undefined);
    expect(signedIn.headers.get('location')).toBe('/dashboard');
  });

  it('when the remembered path names another site, then it is ignored', async () => {
    const signedIn = await signInByForm('portal_return_to=%2F%2Fevil.example%2F');
    expect(signedIn.headers.get('location')).toBe('/dashboard');
  });

  it('when an API call is refused for lack of a session, then nothing is remembered', async () => {
    const response = await new ApiClient(portal).get('/api/receipts');
    expect(response.status).toBe(401);
    expect(
      response.headers.getSetCookie().some((line) => line.startsWith('portal_return_to=')),
    ).toBe(false);
  });
});
