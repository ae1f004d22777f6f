/** Security headers on every answer, HSTS and Secure cookies behind https, and refusal of cross-site requests. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ADMIN_PASSWORD } from '../support/portal';
import { ApiClient } from '../support/api-client';
import { expectError, signedInAdmin } from '../support/api-steps';

const EVIL = 'https://evil.example';
const PUBLIC_HTTPS = 'https://portal.example.test';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

let portal: InProcessPortal;
let httpsPortal: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  [portal, httpsPortal] = await Promise.all([
    startInProcessPortal(),
    startInProcessPortal({ PUBLIC_URL: PUBLIC_HTTPS }),
  ]);
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await Promise.all([portal?.stop(), httpsPortal?.stop()]);
});

const answers = [
  ['the login page', '/login', 200],
  ['a page redirect', '/dashboard', 302],
  ['an API answer', '/api/health', 200],
  ['an API error', '/api/auth/profile', 401],
  ['an unknown API path', '/api/nope', 404],
] as const;

describe('security headers', () => {
  it.each(answers)(
    'when %s is served over http, then it carries nosniff, a CSP with frame-ancestors none and a Referrer-Policy, but no HSTS',
    async (_what, path, status) => {
      const response = await new ApiClient(portal).get(path);
      expect(response.status).toBe(status);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('strict-transport-security')).toBeNull();
    },
  );

  it.each(answers)(
    'when PUBLIC_URL is https and %s is served, then it carries HSTS',
    async (_what, path, status) => {
      const response = await new ApiClient(httpsPortal).get(path);
      expect(response.status).toBe(status);
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it('when PUBLIC_URL is https, then the login cookie is Secure (and still HttpOnly, SameSite=Lax)', async () => {
    const client = new ApiClient(httpsPortal);
    const response = await client.login('admin', ADMIN_PASSWORD);
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith('portal_session='))!;
    const attributes = cookie
      .split(';')
      .slice(1)
      .map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(
      expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']),
    );
    expect((await client.get('/api/auth/profile')).status).toBe(200);
  });

  it("when PUBLIC_URL is https and the browser's Origin is that URL (behind a proxy), then a JSON login is accepted", async () => {
    const response = await new ApiClient(httpsPortal).post(
      '/api/auth/login',
      { username: 'admin', password: ADMIN_PASSWORD },
      { origin: PUBLIC_HTTPS },
    );
    expect(response.status).toBe(200);
  });
});

describe('cross-site requests', () => {
  it('when another site posts the login form, then 403', async () => {
    const response = await new ApiClient(portal).request('POST', '/login', {
      body: `username=admin&password=${ADMIN_PASSWORD}`,
      headers: FORM,
      origin: EVIL,
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('when another site posts a form to /api/auth/logout, then 403 and the session lives on', async () => {
    const client = new ApiClient(portal);
    await client.login('admin', ADMIN_PASSWORD);
    expectError(
      await client.request('POST', '/api/auth/logout', { body: '', headers: FORM, origin: EVIL }),
      403,
      'FORBIDDEN',
      'Cross-site requests are forbidden',
    );
    expectError(
      await client.request('POST', '/api/auth/logout', { origin: EVIL }),
      403,
      'FORBIDDEN',
    );
    expect((await client.get('/api/auth/profile')).status).toBe(200);
  });

  it('when another site posts the sign-out form to /logout, then 403 and the session lives on', async () => {
    const client = new ApiClient(portal);
    await client.login('admin', ADMIN_PASSWORD);
    const response = await client.request('POST', '/logout', {
      body: '',
      headers: FORM,
      origin: EVIL,
    });
    expect(response.status).toBe(403);
    expect((await client.get('/api/auth/profile')).status).toBe(200);
  });

  it('when another site sends JSON to the login, then 403 and no session', async () => {
    const response = await new ApiClient(portal).post(
      '/api/auth/login',
      { username: 'admin', password: ADMIN_PASSWORD },
      { origin: EVIL },
    );
    expectError(response, 403, 'FORBIDDEN');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it("when another site sends JSON with the admin's cookie to create a user, then 403 and nothing is created", async () => {
    const response = await admin.post(
      '/api/auth/users',
      { username: 'csrf-victim', password: 'csrf-secret', role: 'admin' },
      { origin: EVIL },
    );
    expectError(response, 403, 'FORBIDDEN');
    const users = (await admin.get('/api/auth/users')).body.data as Array<{ username: string }>;
    expect(users.map((user) => user.username)).not.toContain('csrf-victim');
  });

  it("when the Origin is 'null' (a sandboxed frame), then an unsafe request is refused", async () => {
    expectError(await admin.delete('/api/auth/users/1', { origin: 'null' }), 403, 'FORBIDDEN');
    expect((await admin.get('/api/auth/profile')).status).toBe(200);
  });

  it('when a form is posted without any Origin, then 403', async () => {
    const response = await new ApiClient(portal).request('POST', '/login', {
      body: `username=admin&password=${ADMIN_PASSWORD}`,
      headers: FORM,
      origin: null,
    });
    expect(response.status).toBe(403);
  });

  it('when JSON comes with the correct Origin, then it is served', async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    expect(response.status).toBe(200);
  });

  it('when JSON comes without any Origin (a script, not a browser), then it is served', async () => {
    const response = await new ApiClient(portal).post(
      '/api/auth/login',
      { username: 'admin', password: ADMIN_PASSWORD },
      { origin: null },
    );
    expect(response.status).toBe(200);
  });

  it('when another site only reads (GET), then it is answered', async () => {
    expect((await new ApiClient(portal).get('/api/health', { origin: EVIL })).status).toBe(200);
  });

  it('when a JSON body comes from the own origin without Content-Type application/json, then 415', async () => {
    const response = await admin.request('POST', '/api/auth/users', {
      body: JSON.stringify({ username: 'wrong-type', password: 'secret-1', role: 'viewer' }),
      headers: { 'Content-Type': 'text/plain' },
    });
    expectError(response, 415, 'VALIDATION_ERROR');
  });
});
