/** User administration: GET|POST /api/auth/users, PUT|DELETE /api/auth/users/{id}, PUT /api/auth/users/{id}/reset-password. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import {
  USER_FIELDS,
  createUser,
  expectError,
  expectNoSecrets,
  signIn,
  signedInAdmin,
  type TestUser,
} from '../../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;
let adminId: number;
let viewer: TestUser;
let adminViewer: TestUser;
/** A viewer the forbidden calls aim at. */
let target: TestUser;
const clients: Record<string, ApiClient> = {};

beforeAll(async () => {
  portal = await startInProcessPortal({ LOGIN_MAX_ATTEMPTS: '1000' });
  admin = await signedInAdmin(portal);
  adminId = (await admin.get('/api/auth/profile')).body.data.user.id;
  viewer = await createUser(admin, 'viewer1', 'viewer');
  adminViewer = await createUser(admin, 'adminviewer1', 'admin-viewer');
  target = await createUser(admin, 'target', 'viewer');
  clients.viewer = await signIn(portal, viewer);
  clients['admin-viewer'] = await signIn(portal, adminViewer);
});

afterAll(async () => {
  await portal?.stop();
});

async function listUsers(client = admin): Promise<Array<Record<string, any>>> {
  const response = await client.get('/api/auth/users');
  expect(response.status).toBe(200);
  return response.body.data;
}

const byUsername = (users: Array<Record<string, any>>, username: string) =>
  users.find((user) => user.username === username);

describe('list', () => {
  it('when the admin lists users, then every user has exactly the public User fields and no secret', async () => {
    const response = await admin.get('/api/auth/users');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const users = response.body.data;
    expect(users.map((user: { username: string }) => user.username)).toEqual(
      expect.arrayContaining(['admin', 'viewer1', 'adminviewer1', 'target']),
    );
    // The list adds whether two-factor sign-in is on, for the admin's reset action.
    for (const user of users)
      expect(Object.keys(user).sort()).toEqual(
        [...USER_FIELDS, 'apiTokens', 'passkeys', 'twoFactorEnabled'].sort(),
      );
    expect(byUsername(users, 'adminviewer1')).toMatchObject({
      role: 'admin-viewer',
      isActive: true,
      email: 'adminviewer1@example.com',
      lastLogin: expect.any(String),
    });
    expectNoSecrets(response.body);
  });
});

describe('create', () => {
  it('when the admin creates a user, then 201 with the user (username lowercased), it is listed, and it can sign in', async () => {
    const response = await admin.post('/api/auth/users', {
      username: 'NewUser',
      fullName: '  New User ',
      email: 'new.user@example.com',
      password: 'new-user-secret',
      role: 'admin-viewer',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ success: true, message: 'User created successfully' });
    const { user } = response.body.data;
    expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    expect(user).toMatchObject({
      username: 'newuser',
      fullName: 'New User',
      email: 'new.user@example.com',
      role: 'admin-viewer',
      isActive: true,
      lastLogin: null,
    });
    expectNoSecrets(response.body);

    expect(byUsername(await listUsers(), 'newuser')).toEqual({
      ...user,
      twoFactorEnabled: false,
      apiTokens: 0,
      passkeys: 0,
    });
    const login = await new ApiClient(portal).post('/api/auth/login', {
      username: 'newuser',
      password: 'new-user-secret',
    });
    expect(login.status).toBe(200);
  });

  it('when only username and password are given, then the role is viewer and the optional fields are null', async () => {
    const response = await admin.post('/api/auth/users', {
      username: 'minimal',
      password: 'minimal-secret',
      email: '',
    });
    expect(response.status).toBe(201);
    expect(response.body.data.user).toMatchObject({
      username: 'minimal',
      role: 'viewer',
      fullName: null,
      email: null,
      isActive: true,
    });
  });

  it.each([
    ['an existing username', 'viewer1'],
    ['an existing username in capitals', 'VIEWER1'],
  ])('when the username is %s, then 409 CONFLICT and no second user', async (_case, username) => {
    const response = await admin.post('/api/auth/users', {
      username,
      password: 'whatever-secret',
      role: 'admin',
    });
    expectError(response, 409, 'CONFLICT', 'Username already exists');
    const users = await listUsers();
    expect(users.filter((user) => user.username === 'viewer1')).toHaveLength(1);
    expect(byUsername(users, 'viewer1')!.role).toBe('viewer');
  });

  it.each([
    ['no username', { password: 'secret1' }, 'username', 'Username is required'],
    [
      'an empty username',
      { username: '', password: 'secret1' },
      'username',
      'Username is required',
    ],
    [
      'a username of 2 characters',
      { username: 'ab', password: 'secret1' },
      'username',
      'Username must be at least 3 characters',
    ],
    [
      'a username with a space',
      { username: 'bad name', password: 'secret1' },
      'username',
      'Username must contain only alphanumeric characters, hyphens, and underscores',
    ],
    [
      'a username with a dot',
      { username: 'bad.name', password: 'secret1' },
      'username',
      'Username must contain only alphanumeric characters, hyphens, and underscores',
    ],
    [
      'an email without @',
      { username: 'goodname', email: 'not-an-email', password: 'secret1' },
      'email',
      'Email is invalid',
    ],
    ['no password', { username: 'goodname' }, 'password', 'Password is required'],
    [
      'an empty password',
      { username: 'goodname', password: '' },
      'password',
      'Password is required',
    ],
    [
      'a password of 5 characters',
      { username: 'goodname', password: '12345' },
      'password',
      'Password must be at least 6 characters',
    ],
    [
      'an unknown role',
      { username: 'goodname', password: 'secret1', role: 'superuser' },
      'role',
      'Role must be admin, admin-viewer or viewer',
    ],
  ])(
    'when the new user has %s, then 400 VALIDATION_ERROR with the exact message and nothing is written',
    async (_case, payload, field, message) => {
      const before = await listUsers();
      const response = await admin.post('/api/auth/users', payload);
      expectError(response, 400, 'VALIDATION_ERROR', message);
      expect(response.body.details).toContainEqual({ field, message });
      expect(await listUsers()).toEqual(before);
    },
  );
});

describe('update', () => {
  it('when the admin edits a user, then 200 with the new values and the list shows them', async () => {
    const edited = await createUser(admin, 'editee');
    const response = await admin.put(`/api/auth/users/${edited.id}`, {
      username: 'Edited',
      fullName: 'Edited Name',
      email: 'edited@example.com',
      role: 'admin-viewer',
      isActive: false,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: 'User updated successfully' });
    const expected = {
      id: edited.id,
      username: 'edited',
      fullName: 'Edited Name',
      email: 'edited@example.com',
      role: 'admin-viewer',
      isActive: false,
    };
    expect(response.body.data.user).toMatchObject(expected);
    expect(Object.keys(response.body.data.user).sort()).toEqual(USER_FIELDS);
    expect(byUsername(await listUsers(), 'edited')).toMatchObject(expected);
  });

  it('when an edit sends fullName and email back as null, as the API itself gives them, then it is accepted', async () => {
    const listed = byUsername(await listUsers(), 'minimal')!;
    expect(listed).toMatchObject({ fullName: null, email: null });
    const response = await admin.put(`/api/auth/users/${listed.id}`, {
      ...listed,
      role: 'admin-viewer',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.user).toMatchObject({
      username: 'minimal',
      fullName: null,
      email: null,
      role: 'admin-viewer',
    });
  });

  it('when the admin renames a user to a taken username, then 409 CONFLICT and the user is unchanged', async () => {
    const before = byUsername(await listUsers(), 'target');
    const response = await admin.put(`/api/auth/users/${target.id}`, {
      username: 'Viewer1',
      fullName: 'Changed',
      role: 'viewer',
      isActive: true,
    });
    expectError(response, 409, 'CONFLICT', 'Username already exists');
    expect(byUsername(await listUsers(), 'target')).toEqual(before);
  });

  it.each([
    [
      'no isActive',
      { username: 'target', role: 'viewer' },
      'isActive',
      'isActive must be true or false',
    ],
    [
      'an invalid email',
      { username: 'target', role: 'viewer', isActive: true, email: 'a@' },
      'email',
      'Email is invalid',
    ],
    [
      'a username with a space',
      { username: 'tar get', role: 'viewer', isActive: true },
      'username',
      'Username must contain only alphanumeric characters, hyphens, and underscores',
    ],
    [
      'no role',
      { username: 'target', isActive: true },
      'role',
      'Role must be admin, admin-viewer or viewer',
    ],
  ])(
    'when the edit has %s, then 400 VALIDATION_ERROR and nothing changes',
    async (_case, payload, field, message) => {
      const before = await listUsers();
      const response = await admin.put(`/api/auth/users/${target.id}`, payload);
      expectError(response, 400, 'VALIDATION_ERROR', message);
      expect(response.body.details).toContainEqual({ field, message });
      expect(await listUsers()).toEqual(before);
    },
  );

  it('when the admin edits their own name, then it is saved', async () => {
    const response = await admin.put(`/api/auth/users/${adminId}`, {
      username: 'admin',
      fullName: 'Chief Admin',
      role: 'admin',
      isActive: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.user).toMatchObject({
      fullName: 'Chief Admin',
      role: 'admin',
      isActive: true,
    });
  });

  it('when the admin deactivates themselves, then 403 and they stay active', async () => {
    const response = await admin.put(`/api/auth/users/${adminId}`, {
      username: 'admin',
      role: 'admin',
      isActive: false,
    });
    expectError(response, 403, 'FORBIDDEN', 'You cannot deactivate your own account');
    expect(byUsername(await listUsers(), 'admin')!.isActive).toBe(true);
  });

  it.each(['admin-viewer', 'viewer'])(
    'when the admin changes their own role to %s, then 403 and they stay admin',
    async (role) => {
      const response = await admin.put(`/api/auth/users/${adminId}`, {
        username: 'admin',
        role,
        isActive: true,
      });
      expectError(response, 403, 'FORBIDDEN', 'You cannot change your own role');
      expect(byUsername(await listUsers(), 'admin')!.role).toBe('admin');
    },
  );
});

describe('delete', () => {
  it('when the admin deletes a user, then 200, the user is gone, and deleting again is 404', async () => {
    const doomed = await createUser(admin, 'doomed');
    const response = await admin.delete(`/api/auth/users/${doomed.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: 'User deleted successfully' });
    expect(byUsername(await listUsers(), 'doomed')).toBeUndefined();
    expectError(
      await admin.delete(`/api/auth/users/${doomed.id}`),
      404,
      'NOT_FOUND',
      'User not found',
    );
  });

  it('when the admin deletes themselves, then 403 and they remain', async () => {
    expectError(
      await admin.delete(`/api/auth/users/${adminId}`),
      403,
      'FORBIDDEN',
      'You cannot delete your own account',
    );
    expect(byUsername(await listUsers(), 'admin')).toBeDefined();
    expect((await admin.get('/api/auth/profile')).status).toBe(200);
  });
});

describe('reset password', () => {
  it.each([
    [
      'a password of 5 characters',
      { newPassword: '12345' },
      'Password must be at least 6 characters long',
    ],
    ['no password', {}, 'Password must be at least 6 characters long'],
  ])(
    'when the new password is %s, then 400 with the exact message and the old password still works',
    async (_case, payload, message) => {
      const response = await admin.put(`/api/auth/users/${target.id}/reset-password`, payload);
      expectError(response, 400, 'VALIDATION_ERROR', message);
      expect(response.body.details).toContainEqual({ field: 'newPassword', message });
    },
  );

  it('when a reset was refused, then the user still signs in with the old password', async () => {
    const login = await new ApiClient(portal).post('/api/auth/login', {
      username: target.username,
      password: target.password,
    });
    expect(login.status).toBe(200);
  });
});

describe('unknown ids', () => {
  const calls = [
    ['PUT', '/api/auth/users/{id}', { username: 'nobody', role: 'viewer', isActive: true }],
    ['DELETE', '/api/auth/users/{id}', undefined],
    ['PUT', '/api/auth/users/{id}/reset-password', { newPassword: 'whatever-secret' }],
  ] as const;
  const ids = ['99999', 'abc', '0', '-1', '1.5', '1e3'];
  const cases = calls.flatMap(([method, path, json]) =>
    ids.map((id) => [method, path.replace('{id}', id), json] as const),
  );

  it.each(cases)('when %s %s names no user, then 404 NOT_FOUND', async (method, path, json) => {
    const response = await admin.request(method, path, json === undefined ? {} : { json });
    expectError(response, 404, 'NOT_FOUND', 'User not found');
  });
});

describe('access', () => {
  const adminCalls = () =>
    [
      ['GET', '/api/auth/users', undefined],
      ['POST', '/api/auth/users', { username: 'sneaky', password: 'sneaky-secret', role: 'admin' }],
      [
        'PUT',
        `/api/auth/users/${target.id}`,
        { username: 'target', role: 'admin', isActive: true },
      ],
      ['DELETE', `/api/auth/users/${target.id}`, undefined],
      ['PUT', `/api/auth/users/${target.id}/reset-password`, { newPassword: 'taken-over' }],
    ] as const;
  const labels = [
    'GET /api/auth/users',
    'POST /api/auth/users',
    'PUT /api/auth/users/{id}',
    'DELETE /api/auth/users/{id}',
    'PUT /api/auth/users/{id}/reset-password',
  ];
  const roleCases = ['viewer', 'admin-viewer'].flatMap((role) =>
    labels.map((label, index) => [role, label, index] as const),
  );

  it.each(roleCases)(
    'when a signed-in %s calls %s, then 403 FORBIDDEN and nothing changes',
    async (role, _label, index) => {
      const before = await listUsers();
      const [method, path, json] = adminCalls()[index]!;
      const response = await clients[role]!.request(
        method,
        path,
        json === undefined ? {} : { json },
      );
      expectError(response, 403, 'FORBIDDEN');
      expect(await listUsers()).toEqual(before);
    },
  );

  it.each(labels.map((label, index) => [label, index] as const))(
    'when a signed-out client calls %s, then 401 and nothing changes',
    async (_label, index) => {
      const before = await listUsers();
      const [method, path, json] = adminCalls()[index]!;
      const response = await new ApiClient(portal).request(
        method,
        path,
        json === undefined ? {} : { json },
      );
      expectError(response, 401, 'AUTHENTICATION_ERROR');
      expect(await listUsers()).toEqual(before);
    },
  );

  it("when the forbidden calls are over, then the target's password is still its own", async () => {
    const login = await new ApiClient(portal).post('/api/auth/login', {
      username: target.username,
      password: target.password,
    });
    expect(login.status).toBe(200);
  });
});

describe('the last active admin', () => {
  let second: TestUser;
  let secondClient: ApiClient;

  const edit = (username: string, role: string) => ({ username, role, isActive: true });
  const activeAdmins = async (client: ApiClient) =>
    (await listUsers(client)).filter((user) => user.role === 'admin' && user.isActive);

  beforeAll(async () => {
    second = await createUser(admin, 'admin2', 'admin');
    secondClient = await signIn(portal, second);
  });

  it('when there are two active admins, then one may demote the other, whose admin access ends at once; promoted again, they sign in again', async () => {
    const response = await admin.put(
      `/api/auth/users/${second.id}`,
      edit('admin2', 'admin-viewer'),
    );
    expect(response.status).toBe(200);
    expectError(await secondClient.get('/api/auth/users'), 403, 'FORBIDDEN');

    expect((await admin.put(`/api/auth/users/${second.id}`, edit('admin2', 'admin'))).status).toBe(
      200,
    );
    // A promotion ends the sessions, so that TWO_FACTOR=required-for-admins applies at the next sign-in.
    expectError(await secondClient.get('/api/auth/users'), 401, 'AUTHENTICATION_ERROR');
    secondClient = await signIn(portal, second);
    expect((await secondClient.get('/api/auth/users')).status).toBe(200);
  });

  // Through the API an admin can never be the only other active admin of their target: they are one
  // themselves. So the "last active admin" refusal (409) is reachable only when two admins act at once.
  it('when the only two admins demote each other at the same time, then exactly one succeeds and one active admin remains', async () => {
    const [first, other] = await Promise.all([
      admin.put(`/api/auth/users/${second.id}`, edit('admin2', 'viewer')),
      secondClient.put(`/api/auth/users/${adminId}`, edit('admin', 'viewer')),
    ]);
    const statuses = [first.status, other.status].sort();
    expect(statuses[0]).toBe(200);
    // 409 when both passed the access check before either wrote; 403 when the loser was already demoted.
    expect([403, 409]).toContain(statuses[1]);
    const loser = first.status === 200 ? other : first;
    if (loser.status === 409)
      expect(loser.body.message).toBe('The last active admin cannot be deactivated or demoted');

    const survivor = first.status === 200 ? admin : secondClient;
    expect(await activeAdmins(survivor)).toHaveLength(1);
    // Restore the second admin for the next test.
    const demoted =
      first.status === 200
        ? { id: second.id, username: 'admin2' }
        : { id: adminId, username: 'admin' };
    expect(
      (await survivor.put(`/api/auth/users/${demoted.id}`, edit(demoted.username, 'admin'))).status,
    ).toBe(200);
    expect(await activeAdmins(survivor)).toHaveLength(2);
  });

  it('when the only two admins delete each other at the same time, then exactly one succeeds and one admin remains', async () => {
    const [first, other] = await Promise.all([
      admin.delete(`/api/auth/users/${second.id}`),
      secondClient.delete(`/api/auth/users/${adminId}`),
    ]);
    const statuses = [first.status, other.status].sort();
    expect(statuses[0]).toBe(200);
    // 409 when both passed the access check before either wrote; 401 when the loser's session was already gone.
    expect([401, 409]).toContain(statuses[1]);
    const loser = first.status === 200 ? other : first;
    if (loser.status === 409)
      expect(loser.body.message).toBe('The last active admin cannot be deleted');

    const survivor = first.status === 200 ? admin : secondClient;
    expect(await activeAdmins(survivor)).toHaveLength(1);
  });
});
