/** EXTERNAL_API_ERROR: only while the mirror has never been filled, and for the live package look-up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { CLOSED_PORT } from '../support/portal';
import { ApiClient } from '../support/api-client';
import { expectError, queryDatabase, signedInAdmin } from '../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  // A provider address where nothing listens: the portal has never synced and cannot.
  portal = await startInProcessPortal({
    PROVIDER: 'http',
    PROVIDER_URL: `http://127.0.0.1:${CLOSED_PORT}/provider`,
  });
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
});

describe('before the first sync', () => {
  it.each([
    '/api/receipts',
    '/api/receipts?page=2&sortBy=status',
    '/api/receipts/stats',
    '/api/receipts/1',
  ])('when %s is asked for, then 503 EXTERNAL_API_ERROR with Retry-After', async (path) => {
    const response = await admin.get(path);
    expectError(response, 503, 'EXTERNAL_API_ERROR');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.body.retryAfter).toBe(Number(response.headers.get('retry-after')));
  });

  it('when a bad query comes, then the 400 still wins: the request is wrong whatever the provider does', async () => {
    expectError(await admin.get('/api/receipts?sortBy=nope'), 400, 'VALIDATION_ERROR');
  });

  it('when the package look-up cannot reach the provider, then EXTERNAL_API_ERROR, and the user stays signed in', async () => {
    const response = await admin.get(
      '/api/package-tracker/search?trackingNumber=1Z999AA10123456784',
    );
    expect([502, 503]).toContain(response.status);
    expect(response.body).toMatchObject({ success: false, errorType: 'EXTERNAL_API_ERROR' });
    expect((await admin.get('/api/auth/profile')).status).toBe(200);
  });

  it('when the sync fails, then its error is kept in the sync state', async () => {
    const [state] = await queryDatabase<{ lastSuccessAt: string | null; lastError: string | null }>(
      portal,
      'SELECT lastSuccessAt, lastError FROM sync_state WHERE id = 1',
    );
    expect(state?.lastSuccessAt).toBeNull();
    expect(state?.lastError).toBeTruthy();
  });

  it('when the sandbox paths are asked for outside sandbox mode, then they do not exist', async () => {
    const response = await new ApiClient(portal).get(
      '/sandbox/oauth/authorize?client_id=freight-portal',
    );
    expect(response.status).toBe(404);
  });
});
