/** Consignee import and assignment: every /api/consignees call, as admin and as everyone else. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import { control } from '../../support/sandbox-steps';
import {
  createUser,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  databaseDate,
  writeDatabase,
  type TestUser,
} from '../../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;
let adminId: number;
let viewerA: TestUser;
let viewerB: TestUser;
let adminViewer: TestUser;
let consignees: Array<{ id: number; name: string }>;
const clients: Record<string, ApiClient> = {};

beforeAll(async () => {
  portal = await startInProcessPortal({ SANDBOX_CONTROL: 'true' });
  admin = await signedInAdmin(portal);
  adminId = (await admin.get('/api/auth/profile')).body.data.user.id;
  viewerA = await createUser(admin, 'viewera', 'viewer');
  viewerB = await createUser(admin, 'viewerb', 'viewer');
  adminViewer = await createUser(admin, 'adminviewer', 'admin-viewer');
  clients.viewer = await signIn(portal, viewerA);
  clients['admin-viewer'] = await signIn(portal, adminViewer);
  clients.anonymous = new ApiClient(portal);
});

afterAll(async () => {
  await portal?.stop();
});

const assignmentRows = (userId?: number) =>
  queryDatabase<{ userId: number; consigneeId: number }>(
    portal,
    `SELECT userId, consigneeId FROM consignee_assignments ${userId === undefined ? '' : 'WHERE userId = ?'} ORDER BY userId, consigneeId`,
    userId === undefined ? [] : [userId],
  );

const consigneeIdsOf = async (userId: number) =>
  (await assignmentRows(userId)).map((row) => row.consigneeId);

/** The assignments answer as { consigneeId: [usernames] } for the consignees asked about. */
async function usersByConsignee(ids: number[]): Promise<Record<number, string[]>> {
  const response = await admin.get('/api/consignees/assignments');
  expect(response.status).toBe(200);
  const rows: Array<{ consignee: { id: number }; assignedUsers: Array<{ username: string }> }> =
    response.body.data;
  return Object.fromEntries(
    rows
      .filter((row) => ids.includes(row.consignee.id))
      .map((row) => [row.consignee.id, row.assignedUsers.map((user) => user.username)]),
  );
}

describe('import', () => {
  it('when nothing was imported yet, then the last import date is null and the list is empty', async () => {
    const last = await admin.get('/api/consignees/last-import-date');
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual({ lastImportDate: null });
    expect((await admin.get('/api/consignees')).body.data).toEqual([]);
  });

  it('when the admin imports, then every provider consignee is new, the message says so, and the import date is set', async () => {
    const before = Date.now();
    const response = await admin.post('/api/consignees/import');
    expect(response.status).toBe(200);
    const { imported, updated, deleted, errors } = response.body.data;
    expect(imported).toBeGreaterThan(20);
    expect({ updated, deleted, errors }).toEqual({ updated: 0, deleted: 0, errors: [] });
    expect(response.body.message).toBe(
      `Import completed: ${imported} new consignees imported, 0 updated, 0 deleted. 0 errors occurred.`,
    );

    const list = await admin.get('/api/consignees');
    consignees = list.body.data;
    expect(consignees).toHaveLength(imported);
    expect(Object.keys(consignees[0]!).sort()).toEqual(['id', 'name']);
    const names = consignees.map((consignee) => consignee.name);
    expect(names).toEqual([...names].sort());

    const { lastImportDate } = (await admin.get('/api/consignees/last-import-date')).body.data;
    expect(new Date(lastImportDate).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('when the admin imports again with nothing changed, then nothing is counted', async () => {
    const response = await admin.post('/api/consignees/import');
    expect(response.body.data).toEqual({ imported: 0, updated: 0, deleted: 0, errors: [] });
  });

  it('when the mirror holds a renamed consignee and one the provider dropped, then the import restores one, deletes the other and its assignments', async () => {
    const renamed = consignees[0]!;
    const now = databaseDate(new Date());
    // States only the provider's own changes can make: arranged in the file.
    await writeDatabase(portal, 'UPDATE consignees SET name = ? WHERE id = ?', [
      'OLD NAME LTD',
      renamed.id,
    ]);
    await writeDatabase(
      portal,
      'INSERT INTO consignees (id, name, createdAt, updatedAt) VALUES (?, ?, ?, ?)',
      [999_999, 'GONE TRADING', now, now],
    );
    const added = await admin.post(`/api/consignees/user/${viewerB.id}/assign`, {
      consigneeIds: [999_999, renamed.id],
    });
    expect(added.body.data).toEqual({ added: 2, skipped: 0 });

    const response = await admin.post('/api/consignees/import');
    expect(response.body.data).toEqual({ imported: 0, updated: 1, deleted: 1, errors: [] });
    expect(response.body.message).toBe(
      'Import completed: 0 new consignees imported, 1 updated, 1 deleted. 0 errors occurred.',
    );
    expect(await consigneeIdsOf(viewerB.id)).toEqual([renamed.id]);
    const names = (await admin.get('/api/consignees')).body.data.map(
      (consignee: { name: string }) => consignee.name,
    );
    expect(names).toContain(renamed.name);
    expect(names).not.toContain('GONE TRADING');

    await admin.delete(`/api/consignees/${renamed.id}/remove-user/${viewerB.id}`);
  });
});

describe('import while the provider is down', () => {
  it('when the provider is unreachable, then EXTERNAL_API_ERROR, and no consignee, assignment or import date is lost', async () => {
    await admin.post(`/api/consignees/${consignees[2]!.id}/add-user`, { userId: viewerB.id });
    const lastBefore = (await admin.get('/api/consignees/last-import-date')).body.data;
    const assignmentsBefore = await assignmentRows();
    expect((await control(portal, 'outage')).status).toBe(200);
    try {
      const response = await admin.post('/api/consignees/import');
      expect([502, 503]).toContain(response.status);
      expect(response.body).toMatchObject({ success: false, errorType: 'EXTERNAL_API_ERROR' });
    } finally {
      await control(portal, 'recover');
    }
    expect((await admin.get('/api/consignees')).body.data).toEqual(consignees);
    expect(await assignmentRows()).toEqual(assignmentsBefore);
    expect((await admin.get('/api/consignees/last-import-date')).body.data).toEqual(lastBefore);
    await admin.delete(`/api/consignees/${consignees[2]!.id}/remove-user/${viewerB.id}`);
  });
});

describe('access', () => {
  const calls: Array<
    [method: 'get' | 'post' | 'delete', path: () => string, body?: () => unknown]
  > = [
    ['post', () => '/api/consignees/import'],
    ['get', () => '/api/consignees'],
    ['get', () => '/api/consignees/last-import-date'],
    ['get', () => '/api/consignees/assignments'],
    ['get', () => `/api/consignees/user/${viewerA.id}`],
    [
      'post',
      () => `/api/consignees/user/${viewerA.id}/assign`,
      () => ({ consigneeIds: [consignees[1]!.id] }),
    ],
    ['post', () => `/api/consignees/reassign/${consignees[1]!.id}`, () => ({ userId: viewerA.id })],
    [
      'post',
      () => '/api/consignees/bulk-reassign',
      () => ({ consigneeIds: [consignees[1]!.id], userId: viewerA.id }),
    ],
    ['post', () => `/api/consignees/${consignees[1]!.id}/add-user`, () => ({ userId: viewerA.id })],
    ['delete', () => `/api/consignees/${consignees[1]!.id}/remove-user/${viewerA.id}`],
    [
      'post',
      () => '/api/consignees/bulk-add-user',
      () => ({ consigneeIds: [consignees[1]!.id], userId: viewerA.id }),
    ],
  ];

  it.each(['anonymous', 'viewer', 'admin-viewer'])(
    'when %s calls any consignee endpoint, then it is refused and nothing is written',
    async (who) => {
      const before = await assignmentRows();
      for (const [method, path, body] of calls) {
        const client = clients[who]!;
        const response =
          method === 'post' ? await client.post(path(), body?.()) : await client[method](path());
        if (who === 'anonymous') expectError(response, 401, 'AUTHENTICATION_ERROR');
        else expectError(response, 403, 'FORBIDDEN');
      }
      expect(await assignmentRows()).toEqual(before);
    },
  );
});

describe('assign to a user', () => {
  it('when the admin assigns consignees to a viewer, then they are added once and the per-user list shows them', async () => {
    const [first, second] = consignees;
    const response = await admin.post(`/api/consignees/user/${viewerA.id}/assign`, {
      consigneeIds: [first!.id, second!.id, first!.id],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ added: 2, skipped: 0 });
    const again = await admin.post(`/api/consignees/user/${viewerA.id}/assign`, {
      consigneeIds: [first!.id, second!.id],
    });
    expect(again.body.data).toEqual({ added: 0, skipped: 2 });

    const mine = await admin.get(`/api/consignees/user/${viewerA.id}`);
    expect(mine.body.data).toEqual([first, second].sort((a, b) => a!.name.localeCompare(b!.name)));
    expect(await consigneeIdsOf(viewerA.id)).toEqual([first!.id, second!.id].sort((a, b) => a - b));
  });

  it('when the admin assigns to an admin, an admin-viewer or an unknown user, then 4xx and nothing is written', async () => {
    const before = await assignmentRows();
    const consigneeIds = [consignees[3]!.id];
    expectError(
      await admin.post(`/api/consignees/user/${adminId}/assign`, { consigneeIds }),
      400,
      'VALIDATION_ERROR',
      'Only viewer users can be assigned consignees',
    );
    expectError(
      await admin.post(`/api/consignees/user/${adminViewer.id}/assign`, { consigneeIds }),
      400,
      'VALIDATION_ERROR',
      'Only viewer users can be assigned consignees',
    );
    expectError(
      await admin.post('/api/consignees/user/987654/assign', { consigneeIds }),
      404,
      'NOT_FOUND',
      'User not found',
    );
    expectError(
      await admin.post('/api/consignees/user/abc/assign', { consigneeIds }),
      404,
      'NOT_FOUND',
      'User not found',
    );
    expectError(await admin.get('/api/consignees/user/987654'), 404, 'NOT_FOUND', 'User not found');
    expect(await assignmentRows()).toEqual(before);
  });

  it('when one of the consignee ids is unknown, then 400 naming it and none of the others is assigned', async () => {
    const before = await assignmentRows();
    const response = await admin.post(`/api/consignees/user/${viewerB.id}/assign`, {
      consigneeIds: [consignees[4]!.id, 888_888],
    });
    expectError(response, 400, 'VALIDATION_ERROR', 'Unknown consignee ids: 888888');
    expect(await assignmentRows()).toEqual(before);
  });

  it.each([
    [{}, 'consigneeIds must be a list of consignee ids'],
    [{ consigneeIds: [] }, 'Select at least one consignee'],
    [{ consigneeIds: ['1'] }, 'consigneeIds must be positive integers'],
    [{ consigneeIds: [1.5] }, 'consigneeIds must be positive integers'],
    [{ consigneeIds: [-3] }, 'consigneeIds must be positive integers'],
    [{ consigneeIds: 'all' }, 'consigneeIds must be a list of consignee ids'],
  ])('when the payload is %j, then 400 "%s"', async (payload, message) => {
    expectError(
      await admin.post(`/api/consignees/user/${viewerB.id}/assign`, payload),
      400,
      'VALIDATION_ERROR',
      message,
    );
  });
});

describe('one consignee', () => {
  it('when the admin adds a user to a consignee twice, then the user is listed once', async () => {
    const consignee = consignees[5]!;
    const first = await admin.post(`/api/consignees/${consignee.id}/add-user`, {
      userId: viewerA.id,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      consignee,
      assignedUsers: [{ id: viewerA.id, username: 'viewera', fullName: 'viewera name' }],
    });
    const second = await admin.post(`/api/consignees/${consignee.id}/add-user`, {
      userId: viewerA.id,
    });
    expect(second.body.data.assignedUsers).toHaveLength(1);
    await admin.post(`/api/consignees/${consignee.id}/add-user`, { userId: viewerB.id });
    expect(await usersByConsignee([consignee.id])).toEqual({
      [consignee.id]: ['viewera', 'viewerb'],
    });
  });

  it('when the admin replaces all users of a consignee, then only that user remains', async () => {
    const consignee = consignees[5]!;
    const response = await admin.post(`/api/consignees/reassign/${consignee.id}`, {
      userId: viewerB.id,
    });
    expect(response.status).toBe(200);
    expect(
      response.body.data.assignedUsers.map((user: { username: string }) => user.username),
    ).toEqual(['viewerb']);
    expect(await usersByConsignee([consignee.id])).toEqual({ [consignee.id]: ['viewerb'] });
  });

  it('when the admin removes a user from a consignee twice, then it is gone and the second call changes nothing', async () => {
    const consignee = consignees[5]!;
    const first = await admin.delete(`/api/consignees/${consignee.id}/remove-user/${viewerB.id}`);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ consignee, assignedUsers: [] });
    const second = await admin.delete(`/api/consignees/${consignee.id}/remove-user/${viewerB.id}`);
    expect(second.status).toBe(200);
    expect(await usersByConsignee([consignee.id])).toEqual({ [consignee.id]: [] });
  });

  it('when the consignee or the user is unknown, or the user is no viewer, then 4xx and nothing is written', async () => {
    const before = await assignmentRows();
    const consignee = consignees[6]!;
    expectError(
      await admin.post('/api/consignees/888888/add-user', { userId: viewerA.id }),
      404,
      'NOT_FOUND',
      'Consignee not found',
    );
    expectError(
      await admin.post(`/api/consignees/${consignee.id}/add-user`, { userId: 987_654 }),
      404,
      'NOT_FOUND',
      'User not found',
    );
    expectError(
      await admin.post(`/api/consignees/${consignee.id}/add-user`, { userId: adminId }),
      400,
      'VALIDATION_ERROR',
      'Only viewer users can be assigned consignees',
    );
    expectError(
      await admin.post(`/api/consignees/${consignee.id}/add-user`, { userId: 'viewera' }),
      400,
      'VALIDATION_ERROR',
      'userId must be a positive integer',
    );
    expectError(
      await admin.post('/api/consignees/reassign/888888', { userId: viewerA.id }),
      404,
      'NOT_FOUND',
      'Consignee not found',
    );
    expectError(
      await admin.post(`/api/consignees/reassign/${consignee.id}`, { userId: adminViewer.id }),
      400,
      'VALIDATION_ERROR',
      'Only viewer users can be assigned consignees',
    );
    expectError(
      await admin.delete(`/api/consignees/888888/remove-user/${viewerA.id}`),
      404,
      'NOT_FOUND',
      'Consignee not found',
    );
    expectError(
      await admin.delete(`/api/consignees/${consignee.id}/remove-user/987654`),
      404,
      'NOT_FOUND',
      'User not found',
    );
    expect(await assignmentRows()).toEqual(before);
  });
});

describe('bulk', () => {
  it('when the admin bulk-adds a user to consignees of which it has some, then exactly the new ones are added and the rest skipped', async () => {
    const ids = consignees.slice(7, 12).map((consignee) => consignee.id);
    await admin.post(`/api/consignees/${ids[0]}/add-user`, { userId: viewerB.id });
    await admin.post(`/api/consignees/${ids[1]}/add-user`, { userId: viewerB.id });
    const response = await admin.post('/api/consignees/bulk-add-user', {
      consigneeIds: ids,
      userId: viewerB.id,
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ added: 3, skipped: 2 });
    const again = await admin.post('/api/consignees/bulk-add-user', {
      consigneeIds: ids,
      userId: viewerB.id,
    });
    expect(again.body.data).toEqual({ added: 0, skipped: 5 });
    expect(await consigneeIdsOf(viewerB.id)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('when the admin bulk-replaces users of consignees, then the user is the only one on each and other consignees keep theirs', async () => {
    const ids = consignees.slice(7, 10).map((consignee) => consignee.id);
    const untouched = consignees.slice(10, 12).map((consignee) => consignee.id);
    await admin.post(`/api/consignees/${ids[2]}/add-user`, { userId: viewerA.id });
    const response = await admin.post('/api/consignees/bulk-reassign', {
      consigneeIds: ids,
      userId: viewerA.id,
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ reassigned: 3 });
    expect(await usersByConsignee([...ids, ...untouched])).toEqual({
      [ids[0]!]: ['viewera'],
      [ids[1]!]: ['viewera'],
      [ids[2]!]: ['viewera'],
      [untouched[0]!]: ['viewerb'],
      [untouched[1]!]: ['viewerb'],
    });
    const again = await admin.post('/api/consignees/bulk-reassign', {
      consigneeIds: ids,
      userId: viewerA.id,
    });
    expect(again.body.data).toEqual({ reassigned: 3 });
    expect(await usersByConsignee(ids)).toEqual({
      [ids[0]!]: ['viewera'],
      [ids[1]!]: ['viewera'],
      [ids[2]!]: ['viewera'],
    });
  });

  it('when a bulk call names an unknown consignee or a non-viewer, then 4xx and not one row changes', async () => {
    const before = await assignmentRows();
    const ids = consignees.slice(12, 15).map((consignee) => consignee.id);
    expectError(
      await admin.post('/api/consignees/bulk-add-user', {
        consigneeIds: [...ids, 777_777],
        userId: viewerA.id,
      }),
      400,
      'VALIDATION_ERROR',
      'Unknown consignee ids: 777777',
    );
    expectError(
      await admin.post('/api/consignees/bulk-reassign', {
        consigneeIds: [...ids, 777_777],
        userId: viewerA.id,
      }),
      400,
      'VALIDATION_ERROR',
      'Unknown consignee ids: 777777',
    );
    expectError(
      await admin.post('/api/consignees/bulk-add-user', { consigneeIds: ids, userId: adminId }),
      400,
      'VALIDATION_ERROR',
      'Only viewer users can be assigned consignees',
    );
    expectError(
      await admin.post('/api/consignees/bulk-reassign', { consigneeIds: ids, userId: 987_654 }),
      404,
      'NOT_FOUND',
      'User not found',
    );
    expectError(
      await admin.post('/api/consignees/bulk-add-user', { consigneeIds: ids }),
      400,
      'VALIDATION_ERROR',
      'userId must be a positive integer',
    );
    expect(await assignmentRows()).toEqual(before);
  });
});

describe('the assignments list', () => {
  it('when the admin reads the assignments, then every consignee is there once, sorted by name, with its users id, username and full name', async () => {
    const response = await admin.get('/api/consignees/assignments');
    const rows: Array<{
      consignee: { id: number; name: string };
      assignedUsers: Array<Record<string, unknown>>;
    }> = response.body.data;
    expect(rows.map((row) => row.consignee)).toEqual(consignees);
    const withUsers = rows.filter((row) => row.assignedUsers.length > 0);
    expect(withUsers.length).toBeGreaterThan(0);
    for (const row of withUsers) {
      for (const user of row.assignedUsers)
        expect(Object.keys(user).sort()).toEqual(['fullName', 'id', 'username']);
    }
    const stored = await assignmentRows();
    expect(
      rows
        .flatMap((row) => row.assignedUsers.map((user) => `${user.id}:${row.consignee.id}`))
        .sort(),
    ).toEqual(stored.map((row) => `${row.userId}:${row.consigneeId}`).sort());
  });
});

describe('users leaving', () => {
  it('when a viewer with consignees becomes an admin-viewer, then the assignments go and cannot come back by demotion', async () => {
    const user = await createUser(admin, 'promoted', 'viewer');
    await admin.post(`/api/consignees/user/${user.id}/assign`, {
      consigneeIds: [consignees[20]!.id],
    });
    const update = await admin.put(`/api/auth/users/${user.id}`, {
      username: 'promoted',
      fullName: '',
      email: '',
      role: 'admin-viewer',
      isActive: true,
    });
    expect(update.status).toBe(200);
    expect(await consigneeIdsOf(user.id)).toEqual([]);
    await admin.put(`/api/auth/users/${user.id}`, {
      username: 'promoted',
      fullName: '',
      email: '',
      role: 'viewer',
      isActive: true,
    });
    expect((await admin.get(`/api/consignees/user/${user.id}`)).body.data).toEqual([]);
  });

  it('when a viewer with consignees is deleted, then their assignments go with them', async () => {
    const user = await createUser(admin, 'leaving', 'viewer');
    await admin.post(`/api/consignees/user/${user.id}/assign`, {
      consigneeIds: [consignees[21]!.id, consignees[22]!.id],
    });
    expect(await consigneeIdsOf(user.id)).toHaveLength(2);
    expect((await admin.delete(`/api/auth/users/${user.id}`)).status).toBe(200);
    expect(await consigneeIdsOf(user.id)).toEqual([]);
    expect((await usersByConsignee([consignees[21]!.id]))[consignees[21]!.id]).toEqual([]);
  });
});
