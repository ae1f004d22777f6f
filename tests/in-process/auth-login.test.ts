/** POST /api/auth/login and GET /api/auth/profile; how passwords and sessions are stored. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ADMIN_PASSWORD } from '../support/portal';
import { ApiClient } from '../support/api-client';
import {
  USER_FIELDS,
  createUser,
  expectError,
  expectNoSecrets,
  mean,
  queryDatabase,
  signedInAdmin,
  tokenOf,
} from '../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  // The limiter has its own file; here many deliberate failures must not lock anyone out.
  portal = await startInProcessPortal({ LOGIN_MAX_ATTEMPTS: '1000' });
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
});

describe('login', () => {
  it('when the admin signs in with the right password, then data.user has exactly the public User fields and the language in effect', async () => {
    const client = new ApiClient(portal);
    const before = Date.now();
    const response = await client.post('/api/auth/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: 'Login successful' });
    const { user } = response.body.data;
    expect(Object.keys(user).sort()).toEqual([...USER_FIELDS, 'locale'].sort());
    expect(user.locale).toBe('en');
    expect(user).toMatchObject({
      username: 'admin',
      role: 'admin',
      isActive: true,
      fullName: 'Administrator',
      email: null,
    });
    expect(typeof user.id).toBe('number');
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
    expect(new Date(user.lastLogin).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('when any login succeeds, then no key anywhere in the answer mentions a password or hash', async () => {
    const response = await new ApiClient(portal).login('admin', ADMIN_PASSWORD);
    expectNoSecrets(response.body);
    expect(JSON.stringify(response.body)).not.toContain('$2b$');
  });

  it("when the username is typed in capitals ('ADMIN'), then it signs in as admin", async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', {
      username: 'ADMIN',
      password: ADMIN_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.user.username).toBe('admin');
  });

  it.each([
    [
      'a username of 2 characters',
      { username: 'ab', password: 'secret1' },
      'username',
      'Username must be at least 3 characters',
    ],
    [
      'a username of 31 characters',
      { username: 'a'.repeat(31), password: 'secret1' },
      'username',
      'Username must not exceed 30 characters',
    ],
    [
      'a username with a space and "!"',
      { username: 'bad name!', password: 'secret1' },
      'username',
      'Username can only contain letters, numbers, hyphens, and underscores',
    ],
    [
      'a password of 5 characters',
      { username: 'admin', password: '12345' },
      'password',
      'Password must be at least 6 characters',
    ],
    [
      'a password of 129 characters',
      { username: 'admin', password: 'p'.repeat(129) },
      'password',
      'Password must not exceed 128 characters',
    ],
    ['no username', { password: 'secret1' }, 'username', 'Username is required'],
    ['no password', { username: 'admin' }, 'password', 'Password is required'],
  ])(
    'when the payload has %s, then 400 VALIDATION_ERROR with the exact message',
    async (_case, payload, field, message) => {
      const response = await new ApiClient(portal).post('/api/auth/login', payload);
      expectError(response, 400, 'VALIDATION_ERROR', message);
      expect(response.body.details).toContainEqual({ field, message });
      expect(response.headers.get('set-cookie')).toBeNull();
    },
  );

  it('when the body is sent as text/plain from the own origin, then 415', async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', undefined, {
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      headers: { 'Content-Type': 'text/plain' },
    });
    expectError(response, 415, 'VALIDATION_ERROR', 'Content-Type must be application/json');
  });

  it('when a form-type body comes without any Origin header, then the origin check refuses it with 403', async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', undefined, {
      body: `username=admin&password=${ADMIN_PASSWORD}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      origin: null,
    });
    expectError(response, 403, 'FORBIDDEN');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('when the body is not valid JSON, then 400', async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', undefined, {
      body: '{"username": "admin", "password": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(response, 400, 'VALIDATION_ERROR', 'Request body is not valid JSON');
  });

  it('when the JSON body is an array, then 400', async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', ['admin', ADMIN_PASSWORD]);
    expectError(response, 400, 'VALIDATION_ERROR', 'Request body must be a JSON object');
  });

  it('when the password is wrong or the username unknown, then both answer the same 401 and message', async () => {
    const wrongPassword = await new ApiClient(portal).post('/api/auth/login', {
      username: 'admin',
      password: 'not-the-password',
    });
    const unknownUser = await new ApiClient(portal).post('/api/auth/login', {
      username: 'nobody-here',
      password: 'not-the-password',
    });

    expectError(wrongPassword, 401, 'AUTHENTICATION_ERROR', 'Invalid username or password');
    expectError(unknownUser, 401, 'AUTHENTICATION_ERROR', 'Invalid username or password');
    expect(unknownUser.body).toEqual(wrongPassword.body);
    expect(wrongPassword.headers.get('set-cookie')).toBeNull();
  });

  it('when the username is unknown, then the answer takes about as long as for a wrong password', async () => {
    const timed = async (username: string) => {
      const started = performance.now();
      const response = await new ApiClient(portal).post('/api/auth/login', {
        username,
        password: 'not-the-password',
      });
      expect(response.status).toBe(401);
      return performance.now() - started;
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      wrong.push(await timed('admin'));
      unknown.push(await timed(`unknown-user-${round}`));
    }
    // bcrypt at cost 12 makes a wrong password slow; an unknown name must not be answered much faster.
    expect(mean(unknown)).toBeGreaterThanOrEqual(mean(wrong) * 0.5);
  });

  it('when the user is inactive, then the right password is refused like a wrong one', async () => {
    const user = await createUser(admin, 'inactive-user');
    const deactivated = await admin.put(`/api/auth/users/${user.id}`, {
      username: user.username,
      role: 'viewer',
      isActive: false,
    });
    expect(deactivated.status).toBe(200);

    const response = await new ApiClient(portal).post('/api/auth/login', {
      username: user.username,
      password: user.password,
    });
    expectError(response, 401, 'AUTHENTICATION_ERROR', 'Invalid username or password');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('when a login succeeds over http, then the session cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure', async () => {
    const response = await new ApiClient(portal).login('admin', ADMIN_PASSWORD);
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith('portal_session='));
    expect(cookie).toBeDefined();
    const attributes = cookie!
      .split(';')
      .slice(1)
      .map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    expect(attributes).not.toContain('secure');
    // The token is 256 random bits: 43 characters of base64url.
    expect(cookie!.split(';')[0]).toMatch(/^portal_session=[A-Za-z0-9_-]{43}$/);
  });

  it('when a signed-in client logs in again, then it gets a new session, the new one works and the old one is dead', async () => {
    const client = new ApiClient(portal);
    await client.login('admin', ADMIN_PASSWORD);
    const first = client.cookie;
    await client.login('admin', ADMIN_PASSWORD); // sends the first cookie along
    const second = client.cookie;

    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const profile = await client.get('/api/auth/profile');
    expect(profile.status).toBe(200);
    const old = new ApiClient(portal);
    old.cookie = first;
    expect((await old.get('/api/auth/profile')).status).toBe(401);
  });
});

describe('profile', () => {
  it('when signed in, then GET /api/auth/profile answers data.user with exactly the public User fields and the language in effect', async () => {
    const response = await admin.get('/api/auth/profile');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(Object.keys(response.body.data.user).sort()).toEqual([...USER_FIELDS, 'locale'].sort());
    expect(response.body.data.user.username).toBe('admin');
    expectNoSecrets(response.body);
  });

  it('when signed out, then GET /api/auth/profile answers 401 AUTHENTICATION_ERROR', async () => {
    expectError(await new ApiClient(portal).get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
  });

  it('when the cookie holds a made-up token, then 401', async () => {
    const client = new ApiClient(portal);
    client.cookie = `portal_session=${'A'.repeat(43)}`;
    expectError(await client.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('password and session storage', () => {
  const longPassword = Array.from(
    { length: 100 },
    (_, index) => 'abcdefghijklmnopqrstuvwxyz0123456789'[index % 36],
  ).join('');

  it('when a 100-character password differs only after character 72, then the login fails; the exact one works', async () => {
    const user = await createUser(admin, 'long-password', 'viewer', longPassword);
    const sameStart = `${longPassword.slice(0, 72)}${'Z'.repeat(28)}`;
    expect(sameStart).not.toBe(longPassword);

    const wrong = await new ApiClient(portal).post('/api/auth/login', {
      username: user.username,
      password: sameStart,
    });
    expectError(wrong, 401, 'AUTHENTICATION_ERROR', 'Invalid username or password');
    const right = await new ApiClient(portal).post('/api/auth/login', {
      username: user.username,
      password: longPassword,
    });
    expect(right.status).toBe(200);
  });

  it('when a password is stored, then it is a bcrypt hash of the configured cost (these tests lower it to 4)', async () => {
    const rows = await queryDatabase<{ username: string; passwordHash: string }>(
      portal,
      'SELECT username, passwordHash FROM users',
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(row.passwordHash, row.username).toMatch(/^\$2b\$04\$[./A-Za-z0-9]{53}$/);
    }
    expect(rows.map((row) => row.passwordHash)).not.toContain(ADMIN_PASSWORD);
  });

  it('when PASSWORD_HASH_COST is not set (production), then a stored password is a bcrypt hash of cost 12', async () => {
    const production = await startInProcessPortal({ PASSWORD_HASH_COST: '' });
    try {
      const [row] = await queryDatabase<{ passwordHash: string }>(
        production,
        "SELECT passwordHash FROM users WHERE username = 'admin'",
      );
      expect(row?.passwordHash).toMatch(/^\$2b\$12\$[./A-Za-z0-9]{53}$/);
    } finally {
      await production.stop();
    }
  });

  it('when a session is created, then the sessions table holds the SHA-256 hex of the token, never the token', async () => {
    const client = new ApiClient(portal);
    await client.login('admin', ADMIN_PASSWORD);
    const token = tokenOf(client);
    const rows = await queryDatabase<{ id: string }>(portal, 'SELECT id FROM sessions');

    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.id).toMatch(/^[0-9a-f]{64}$/);
    const ids = rows.map((row) => row.id);
    expect(ids).toContain(createHash('sha256').update(token).digest('hex'));
    expect(ids).not.toContain(token);
  });
});
