/**
 * When sessions end: logout, password change, reset, deactivation, deletion. Old cookies must be dead
 * on the server, not merely dropped by the browser, so each test replays the old cookie.
 *
 * The idle timeout is checked by ageing a session in the database; the expiry rule itself has unit tests.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ADMIN_PASSWORD } from '../../support/portal';
import { ApiClient } from '../../support/api-client';
import {
  createUser,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  tokenOf,
} from '../../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal({ LOGIN_MAX_ATTEMPTS: '1000' });
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
});

/** A client that keeps replaying a cookie, whatever the server answers about it. */
function replay(client: ApiClient): ApiClient {
  const copy = new ApiClient(portal);
  copy.cookie = client.cookie;
  return copy;
}

describe('logout', () => {
  it('when a user logs out, then the old cookie replayed afterwards is refused with 401', async () => {
    const client = await signIn(portal, { username: 'admin', password: ADMIN_PASSWORD });
    const old = replay(client);

    const response = await client.post('/api/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: 'Logged out successfully' });
    expect(client.cookie).toBeUndefined(); // the answer cleared the cookie

    expectError(await old.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
  });

  it('when a signed-out client logs out, then it still answers 200', async () => {
    const response = await new ApiClient(portal).post('/api/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
  });

  it('when the sign-out form posts to /logout, then 303 to /login and the old cookie is dead', async () => {
    const client = await signIn(portal, { username: 'admin', password: ADMIN_PASSWORD });
    const old = replay(client);

    const response = await client.request('POST', '/logout', {
      body: '',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login');
    expect(client.cookie).toBeUndefined();
    expectError(await old.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('timeouts', () => {
  it('when a session has been idle longer than SESSION_IDLE_MINUTES, then it is refused and removed', async () => {
    // A portal of its own: its clock moves on by a day.
    const idle = await startInProcessPortal();
    try {
      const client = await signIn(idle, { username: 'admin', password: ADMIN_PASSWORD });
      // 719 minutes idle: still signed in (and that request is activity).
      idle.clock.advance(719 * 60_000);
      expect((await client.get('/api/auth/profile')).status).toBe(200);

      idle.clock.advance(721 * 60_000);
      expectError(await client.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
      const rows = await queryDatabase(
        idle,
        'SELECT COUNT(*) AS count FROM sessions WHERE id = ?',
        [createHash('sha256').update(tokenOf(client)).digest('hex')],
      );
      expect(rows[0]).toEqual({ count: 0 });
    } finally {
      await idle.stop();
    }
  });

  it('when SESSION_IDLE_MINUTES is 5, the least allowed, then a user active every minute stays signed in, and 5 quiet minutes end the session', async () => {
    const idle = await startInProcessPortal({ SESSION_IDLE_MINUTES: '5' });
    try {
      const client = await signIn(idle, { username: 'admin', password: ADMIN_PASSWORD });
      // Activity is recorded at most once a minute: a request every 59 s for a quarter of an hour.
      for (let minute = 0; minute < 15; minute++) {
        idle.clock.advance(59_000);
        expect(
          (await client.get('/api/auth/profile')).status,
          `after ${minute + 1} active minutes`,
        ).toBe(200);
      }
      idle.clock.advance(5 * 60_000 + 1_000);
      expectError(await client.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    } finally {
      await idle.stop();
    }
  });
});

describe('change password', () => {
  it('when a user changes the password, then other sessions end, the current one stays, and only the new password works', async () => {
    const user = await createUser(admin, 'changer');
    const current = await signIn(portal, user);
    const other = await signIn(portal, user);

    const response = await current.post('/api/auth/change-password', {
      currentPassword: user.password,
      newPassword: 'brand-new-secret',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: 'Password changed successfully!',
    });

    expect((await current.get('/api/auth/profile')).status).toBe(200);
    expectError(await other.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    expectError(
      await new ApiClient(portal).post('/api/auth/login', {
        username: user.username,
        password: user.password,
      }),
      401,
      'AUTHENTICATION_ERROR',
    );
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: user.username,
          password: 'brand-new-secret',
        })
      ).status,
    ).toBe(200);
  });

  it('when the current password is wrong, then 400 with a message and the password stays as it was', async () => {
    const client = await signIn(portal, { username: 'admin', password: ADMIN_PASSWORD });
    const response = await client.post('/api/auth/change-password', {
      currentPassword: 'not-the-password',
      newPassword: 'another-secret',
    });

    expectError(response, 400, 'VALIDATION_ERROR', 'Current password is incorrect');
    expect(response.body.details).toContainEqual({
      field: 'currentPassword',
      message: 'Current password is incorrect',
    });
    expect((await client.get('/api/auth/profile')).status).toBe(200);
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: 'admin',
          password: ADMIN_PASSWORD,
        })
      ).status,
    ).toBe(200);
  });

  it.each([
    [
      'a new password of 5 characters',
      { currentPassword: ADMIN_PASSWORD, newPassword: '12345' },
      'New password must be at least 6 characters',
    ],
    [
      'no new password',
      { currentPassword: ADMIN_PASSWORD },
      'New password must be at least 6 characters',
    ],
    [
      'a new password of 129 characters',
      { currentPassword: ADMIN_PASSWORD, newPassword: 'n'.repeat(129) },
      'New password must not exceed 128 characters',
    ],
    [
      'a current password of 5 characters',
      { currentPassword: '12345', newPassword: 'another-secret' },
      'Current password is required',
    ],
    ['no current password', { newPassword: 'another-secret' }, 'Current password is required'],
  ])(
    'when the payload has %s, then 400 with the exact message',
    async (_case, payload, message) => {
      expectError(
        await admin.post('/api/auth/change-password', payload),
        400,
        'VALIDATION_ERROR',
        message,
      );
    },
  );

  it('when signed out, then change-password answers 401', async () => {
    const response = await new ApiClient(portal).post('/api/auth/change-password', {
      currentPassword: ADMIN_PASSWORD,
      newPassword: 'another-secret',
    });
    expectError(response, 401, 'AUTHENTICATION_ERROR');
  });
});

describe('the admin ends sessions', () => {
  it('when the admin resets a password, then every session of that user ends and the new password works', async () => {
    const user = await createUser(admin, 'resettee');
    const first = await signIn(portal, user);
    const second = await signIn(portal, user);

    const response = await admin.put(`/api/auth/users/${user.id}/reset-password`, {
      newPassword: 'reset-secret',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: 'Password reset successfully' });

    expectError(await first.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    expectError(await second.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    expect((await admin.get('/api/auth/profile')).status).toBe(200); // not the admin's own
    expectError(
      await new ApiClient(portal).post('/api/auth/login', {
        username: user.username,
        password: user.password,
      }),
      401,
      'AUTHENTICATION_ERROR',
    );
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: user.username,
          password: 'reset-secret',
        })
      ).status,
    ).toBe(200);
  });

  it('when the admin deactivates a user, then the old cookies are dead, and stay dead after reactivation', async () => {
    const user = await createUser(admin, 'deactivatee', 'admin-viewer');
    const checkedWhileInactive = await signIn(portal, user);
    const checkedAfterReactivation = await signIn(portal, user);
    const edit = { username: user.username, role: user.role };

    expect(
      (await admin.put(`/api/auth/users/${user.id}`, { ...edit, isActive: false })).status,
    ).toBe(200);
    expectError(await checkedWhileInactive.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');

    // This cookie was not used while the user was inactive: only ending the sessions at deactivation kills it.
    expect(
      (await admin.put(`/api/auth/users/${user.id}`, { ...edit, isActive: true })).status,
    ).toBe(200);
    expectError(
      await checkedAfterReactivation.get('/api/auth/profile'),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(await checkedWhileInactive.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: user.username,
          password: user.password,
        })
      ).status,
    ).toBe(200);
  });

  it('when the admin edits an active user without deactivating, then the user stays signed in', async () => {
    const user = await createUser(admin, 'renamee');
    const client = await signIn(portal, user);
    const response = await admin.put(`/api/auth/users/${user.id}`, {
      username: 'renamed',
      fullName: 'Renamed',
      role: 'viewer',
      isActive: true,
    });
    expect(response.status).toBe(200);

    const profile = await client.get('/api/auth/profile');
    expect(profile.status).toBe(200);
    expect(profile.body.data.user).toMatchObject({ username: 'renamed', fullName: 'Renamed' });
  });

  it('when the admin deletes a user, then the old cookie is dead', async () => {
    const user = await createUser(admin, 'deletee');
    const client = await signIn(portal, user);

    expect((await admin.delete(`/api/auth/users/${user.id}`)).status).toBe(200);
    expectError(await client.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    expectError(
      await new ApiClient(portal).post('/api/auth/login', {
        username: user.username,
        password: user.password,
      }),
      401,
      'AUTHENTICATION_ERROR',
    );
  });
});
