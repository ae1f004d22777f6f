/**
 * Page-level rules (which path leads where, and which role may open which page), decided on the server before any HTML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ADMIN_PASSWORD } from '../support/portal';
import { ApiClient } from '../support/api-client';
import { createUser, signIn, signedInAdmin } from '../support/api-steps';

/** An admin page of the route table (User Management). */
const ADMIN_PAGE = '/admin/users';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

let portal: InProcessPortal;
const clients: Record<'admin' | 'admin-viewer' | 'viewer', ApiClient> = {} as never;

beforeAll(async () => {
  portal = await startInProcessPortal({ LOGIN_MAX_ATTEMPTS: '1000' });
  clients.admin = await signedInAdmin(portal);
  clients['admin-viewer'] = await signIn(
    portal,
    await createUser(clients.admin, 'pages-admin-viewer', 'admin-viewer'),
  );
  clients.viewer = await signIn(portal, await createUser(clients.admin, 'pages-viewer', 'viewer'));
});

afterAll(async () => {
  await portal?.stop();
});

const anonymous = () => new ApiClient(portal);
const roles = ['admin', 'admin-viewer', 'viewer'] as const;

function expectRedirect(
  response: { status: number; headers: Headers },
  location: string,
  status = 302,
): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('location')).toBe(location);
}

describe('signed out', () => {
  it.each(['/dashboard', '/'])(
    'when a signed-out visitor opens %s, then 302 to /login',
    async (path) => {
      expectRedirect(await anonymous().get(path), '/login');
    },
  );

  it('when a signed-out visitor opens /login, then the sign-in page is shown with its tagline', async () => {
    const response = await anonymous().get('/login');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.body).toContain('Sign in to access your freight management dashboard');
  });
});

describe('signed in', () => {
  it.each(roles)('when a signed-in %s opens /, then 302 to /dashboard', async (role) => {
    expectRedirect(await clients[role].get('/'), '/dashboard');
  });

  it.each(roles)('when a signed-in %s opens /login, then 302 to /dashboard', async (role) => {
    expectRedirect(await clients[role].get('/login'), '/dashboard');
  });

  it.each(roles)(
    'when a signed-in %s opens /dashboard, then the dashboard is shown',
    async (role) => {
      const response = await clients[role].get('/dashboard');
      expect(response.status).toBe(200);
      expect(response.body).toContain('Overview of your freight receipt data and statistics');
    },
  );

  it('when a session has been ended, then /dashboard redirects to /login again', async () => {
    const client = await signIn(portal, { username: 'admin', password: ADMIN_PASSWORD });
    const old = new ApiClient(portal);
    old.cookie = client.cookie;
    await client.post('/api/auth/logout');
    expectRedirect(await old.get('/dashboard'), '/login');
  });
});

describe('signed-in pages and caches', () => {
  it('when a signed-in page is served, then the browser is told not to store it', async () => {
    const response = await clients.viewer.get('/profile');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('unknown paths', () => {
  it.each(['/admin/users/constructor', '/admin/users/everyone', '/admin/users/viewers/extra'])(
    'when the admin opens the unknown user view %s, then 302 to /',
    async (path) => {
      expectRedirect(await clients.admin.get(path), '/');
    },
  );

  it('when anyone opens /logout as a page, then 302 to /', async () => {
    expectRedirect(await anonymous().get('/logout'), '/');
  });

  it.each(['/nope', '/some/deep/path', '/dashboard-old'])(
    'when anyone opens the unknown path %s, then 302 to /',
    async (path) => {
      expectRedirect(await anonymous().get(path), '/');
      expectRedirect(await clients.viewer.get(path), '/');
    },
  );
});

describe('admin pages', () => {
  it.each(['viewer', 'admin-viewer'] as const)(
    `when a signed-in %s opens ${ADMIN_PAGE}, then 302 to /dashboard`,
    async (role) => {
      expectRedirect(await clients[role].get(ADMIN_PAGE), '/dashboard');
    },
  );

  it(`when a signed-out visitor opens ${ADMIN_PAGE}, then 302 to /login`, async () => {
    expectRedirect(await anonymous().get(ADMIN_PAGE), '/login');
  });

  it(`when the admin opens ${ADMIN_PAGE}, then the page is shown`, async () => {
    expect((await clients.admin.get(ADMIN_PAGE)).status).toBe(200);
  });
});

describe('the login form without JavaScript', () => {
  it('when the form is posted with the right credentials from the own origin, then 303 to /dashboard with a working session cookie', async () => {
    const client = anonymous();
    const response = await client.request('POST', '/login', {
      body: new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }).toString(),
      headers: FORM,
    });
    expectRedirect(response, '/dashboard', 303);
    expect(client.cookie).toMatch(/^portal_session=/);
    expect((await client.get('/api/auth/profile')).body.data.user.username).toBe('admin');
  });

  it('when the form is posted with a wrong password, then no session and no way to /dashboard', async () => {
    const client = anonymous();
    const response = await client.request('POST', '/login', {
      body: new URLSearchParams({ username: 'admin', password: 'not-the-password' }).toString(),
      headers: FORM,
    });
    expect(response.headers.get('location')).not.toBe('/dashboard');
    expect(client.cookie).toBeUndefined();
    expect((await client.get('/api/auth/profile')).status).toBe(401);
  });
});
