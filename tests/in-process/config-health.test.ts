/** GET /api/config, GET /api/health and the JSON 404 for API paths nothing answers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ApiClient } from '../support/api-client';
import { expectError, signedInAdmin } from '../support/api-steps';

let portal: InProcessPortal;
let noLocations: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  [portal, noLocations] = await Promise.all([
    startInProcessPortal(),
    startInProcessPortal({ SHOW_LOCATIONS: 'false' }),
  ]);
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await Promise.all([portal?.stop(), noLocations?.stop()]);
});

describe('GET /api/config', () => {
  it('when signed out, then 401', async () => {
    expectError(await new ApiClient(portal).get('/api/config'), 401, 'AUTHENTICATION_ERROR');
  });

  it('when signed in with default settings, then showLocations is true', async () => {
    const response = await admin.get('/api/config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { showLocations: true } });
  });

  it('when SHOW_LOCATIONS=false, then showLocations is false', async () => {
    const client = await signedInAdmin(noLocations);
    const response = await client.get('/api/config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { showLocations: false } });
  });
});

describe('GET /api/health', () => {
  it('when called without a session, then 200 with status ok and database ok', async () => {
    const response = await new ApiClient(portal).get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toMatchObject({ status: 'ok', database: 'ok' });
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('unknown API paths', () => {
  const NOT_FOUND = { success: false, message: 'Endpoint not found', errorType: 'NOT_FOUND' };

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['PUT', '/api/nope'],
    ['DELETE', '/api/nope'],
    ['GET', '/api/auth/nope/deeper'],
    ['GET', '/api'],
  ])(
    'when %s %s is asked for, signed in or not, then a JSON 404 NOT_FOUND envelope',
    async (method, path) => {
      for (const client of [new ApiClient(portal), admin]) {
        const response = await client.request(method, path);
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.body).toEqual(NOT_FOUND);
      }
    },
  );

  it.each([
    ['GET', '/api/auth/login', 'POST'],
    ['DELETE', '/api/health', 'GET'],
    ['PATCH', '/api/auth/profile', 'GET'],
    ['POST', '/api/auth/users/1/reset-password', 'PUT'],
  ])(
    'when %s %s names an existing endpoint with a method it lacks, then a 405 in the JSON envelope, never HTML',
    async (method, path, allow) => {
      const response = await admin.request(method, path);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toMatchObject({ success: false, errorType: 'METHOD_NOT_ALLOWED' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
    },
  );
});
