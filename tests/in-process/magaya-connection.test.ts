/**
 * A forwarder's admin connects a Magaya on Token Management (PROVIDER=magaya): the API user entered,
 * stored encrypted, tested, its errors in words in English and Dutch, and the receipts it then reads.
 * The Magaya is another portal's sandbox in Magaya mode, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MAGAYA_PASSWORD, SANDBOX_MAGAYA_USERNAME } from '~/server/provider/sandbox/magaya';
import { ApiClient } from '../support/api-client';
import { expectError, queryDatabase, signedInAdmin } from '../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';

const DUTCH = { 'Accept-Language': 'nl' };

let magaya: InProcessPortal;
let portal: InProcessPortal;
let contract: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  magaya = await startInProcessPortal(
    { SANDBOX_PROTOCOL: 'magaya', SANDBOX_RECEIPTS: '40' },
    { background: false },
  );
  [portal, contract] = await Promise.all([
    startInProcessPortal(
      { PROVIDER: 'magaya', PROVIDER_URL: `${magaya.url}/sandbox/Invoke?Handler=CSSoapService` },
      { background: false },
    ),
    startInProcessPortal({ SANDBOX_RECEIPTS: '5' }, { background: false }),
  ]);
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await Promise.all([portal?.stop(), contract?.stop(), magaya?.stop()]);
});

describe('the Magaya connection on Token Management', () => {
  it('when no API user is set, then the card says so, and a test or a sync says to enter one', async () => {
    const status = await admin.get('/api/tokens/magaya');
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      username: null,
      source: null,
      lastSessionAt: null,
      endpoint: `${magaya.url}/sandbox/Invoke?Handler=CSSoapService`,
    });
    const test = await admin.post('/api/tokens/magaya/test');
    expect(test.body.data).toEqual({
      ok: false,
      error: 'not_configured',
      errorText: 'No Magaya API user is set: enter one on Token Management.',
    });
    expectError(await admin.post('/api/sync'), 503, 'EXTERNAL_API_ERROR');
  });

  it('when the admin enters a wrong password, then Test connection says so in English and in Dutch', async () => {
    const saved = await admin.put('/api/tokens/magaya', {
      username: SANDBOX_MAGAYA_USERNAME,
      password: 'not-the-password',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ username: SANDBOX_MAGAYA_USERNAME, source: 'admin' });
    const english = await admin.post('/api/tokens/magaya/test');
    expect(english.body.data).toEqual({
      ok: false,
      error: 'access_denied',
      errorText: 'Magaya refused the user name or password.',
    });
    const dutch = await admin.post('/api/tokens/magaya/test', undefined, { headers: DUTCH });
    expect(dutch.body.data.errorText).toBe('Magaya weigerde de gebruikersnaam of het wachtwoord.');
    // The card's last session, in the reader's language.
    const status = await admin.get('/api/tokens/magaya', { headers: DUTCH });
    expect(status.body.data).toMatchObject({
      lastSessionError: 'access_denied',
      lastSessionErrorText: 'Magaya weigerde de gebruikersnaam of het wachtwoord.',
    });
  });

  it('when the admin enters the right user, then the test succeeds, the password is stored encrypted, and a sync reads the receipts', async () => {
    expectError(
      await admin.put('/api/tokens/magaya', { username: ' ', password: '' }),
      400,
      'VALIDATION_ERROR',
    );
    await admin.put('/api/tokens/magaya', {
      username: SANDBOX_MAGAYA_USERNAME,
      password: SANDBOX_MAGAYA_PASSWORD,
    });
    const test = await admin.post('/api/tokens/magaya/test');
    expect(test.body.data).toEqual({ ok: true, error: null, errorText: null });
    const status = await admin.get('/api/tokens/magaya');
    expect(status.body.data).toMatchObject({
      username: SANDBOX_MAGAYA_USERNAME,
      lastSessionError: null,
    });
    expect(status.body.data.lastSessionAt).not.toBeNull();
    expect(Object.keys(status.body.data)).not.toContain('password');
    // The audit trail names the user an admin saved, never its password.
    const entries = await queryDatabase<{ detail: string }>(
      portal,
      `SELECT "detail" FROM "audit_entries" WHERE "action" = 'provider.magaya-user-saved'`,
    );
    expect(entries).toHaveLength(2);
    for (const entry of entries)
      expect(entry.detail).toBe(JSON.stringify({ name: SANDBOX_MAGAYA_USERNAME }));
    const [row] = await queryDatabase<{ password: string }>(
      portal,
      'SELECT "password" FROM "magaya_connection"',
    );
    expect(row!.password).toMatch(/^v1\./);
    expect(row!.password).not.toContain(SANDBOX_MAGAYA_PASSWORD);

    const synced = await admin.post('/api/sync');
    expect(synced.status).toBe(200);
    const receipts = await admin.get('/api/receipts?limit=100');
    expect(receipts.body.data.length).toBeGreaterThan(0);
    expect(magaya.portal.sandbox!.magaya!.sessionOpen).toBe(false);
  });

  it('when Token Management is opened, then the Magaya connection card stands in place of the OAuth2 cards; with another provider nothing changes', async () => {
    const page = await admin.get('/admin/tokens');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Magaya connection');
    expect(page.body).toContain('Test connection');
    expect(page.body).not.toContain('Access Token');

    const contractAdmin = await signedInAdmin(contract);
    const oauthPage = await contractAdmin.get('/admin/tokens');
    expect(oauthPage.body).toContain('Access Token');
    expect(oauthPage.body).not.toContain('Magaya connection');
    expect((await contractAdmin.get('/api/tokens/magaya')).status).toBe(404);
  });

  it('when a customer opens the pre-alerts, then the page says they stay in the portal and are not sent to Magaya, in both languages', async () => {
    const page = await admin.get('/admin/prealerts');
    expect(page.body).toContain(
      'pre-alerts stay in the portal and are matched here by tracking number',
    );
    const dutch = await admin.get('/admin/prealerts', { headers: DUTCH });
    expect(dutch.body).toContain('vooraanmeldingen blijven in het portaal');
    const contractAdmin = await signedInAdmin(contract);
    expect((await contractAdmin.get('/admin/prealerts')).body).not.toContain(
      'pre-alerts stay in the portal',
    );
  });
});
