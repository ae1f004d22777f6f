/**
 * The audit trail: an entry for every admin action made through the real API (who, what, on what, from
 * which address, a detail without secrets), GET /api/audit with its filters and pages, the CSV export,
 * who may read it, and the housekeeping that drops entries older than AUDIT_RETENTION_DAYS.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient, type RequestOptions } from '../../support/api-client';
import {
  createUser,
  databaseText,
  expectError,
  queryDatabase,
  signIn,
  waitForMirror,
  type TestUser,
} from '../../support/api-steps';
import { uploadImage } from '../../support/branding-steps';
import { pngFile } from '../../support/images';
import { ADMIN_PASSWORD } from '../../support/portal';
import { connect, decide } from '../../support/sandbox-steps';

/** The admin's address as the trusted proxy reports it. */
const ADMIN_ADDRESS = '203.0.113.7';
const DAY_MS = 86_400_000;
const FORWARDED = { 'X-Forwarded-For': ADMIN_ADDRESS };

/** A browser behind the portal's proxy: every request carries the address the proxy saw. */
class ForwardedClient extends ApiClient {
  override request<T = any>(method: string, path: string, options: RequestOptions = {}) {
    return super.request<T>(method, path, {
      ...options,
      headers: { ...FORWARDED, ...options.headers },
    });
  }
}

let portal: InProcessPortal;
let admin: ForwardedClient;
let adminId: number;
let viewerClient: ApiClient;
let adminViewerClient: ApiClient;
let anonymous: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_CONTROL: 'true',
    SANDBOX_RECEIPTS: '40',
    LOGIN_MAX_ATTEMPTS: '1000',
    TRUST_PROXY: 'true',
  });
  admin = new ForwardedClient(portal);
  await admin.login('admin', ADMIN_PASSWORD);
  adminId = (await admin.get('/api/auth/profile')).body.data.user.id;
  await waitForMirror(admin);
  viewerClient = await signIn(portal, await createUser(admin, 'auditviewer', 'viewer'));
  adminViewerClient = await signIn(
    portal,
    await createUser(admin, 'auditadminviewer', 'admin-viewer'),
  );
  anonymous = new ApiClient(portal);
});

afterAll(async () => {
  await portal?.stop();
});

interface Entry {
  id: number;
  at: string;
  actorId: number | null;
  actorName: string;
  action: string;
  target: string | null;
  clientAddress: string | null;
  detail: string | null;
}

async function entries(
  query = '',
  client: ApiClient = admin,
): Promise<{ data: Entry[]; pagination: Record<string, any> }> {
  const response = await client.get(`/api/audit${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** The newest entry of `action`. */
async function newest(action: string): Promise<Entry | undefined> {
  return (await entries(`?action=${action}&limit=1`)).data[0];
}

/** The id every entry written from now on is above. */
async function lastId(): Promise<number> {
  return (await entries('?limit=1')).data[0]?.id ?? 0;
}

/** The entries written since `after`, oldest first. */
async function since(after: number): Promise<Entry[]> {
  return (await entries('?limit=100')).data.filter((entry) => entry.id > after).reverse();
}

/** An entry the admin wrote through the API: the actor and the address are always these. */
function expectByAdmin(
  entry: Entry | undefined,
  expected: { action: string; target: string | null; detail?: string | RegExp | null },
): void {
  expect(entry).toBeDefined();
  expect(entry).toMatchObject({
    actorId: adminId,
    actorName: 'admin',
    clientAddress: ADMIN_ADDRESS,
    action: expected.action,
    target: expected.target,
  });
  if (expected.detail instanceof RegExp) expect(entry!.detail).toMatch(expected.detail);
  else if (expected.detail !== undefined) expect(entry!.detail).toBe(expected.detail);
  expect(Date.parse(entry!.at)).toBeLessThanOrEqual(portal.clock.now());
}

/** The stored row of an entry, every column as text. */
async function storedRow(id: number): Promise<string> {
  const [row] = await queryDatabase(portal, 'SELECT * FROM audit_entries WHERE id = ?', [id]);
  return JSON.stringify(row);
}

describe('users', () => {
  let user: { id: number };
  const password = 'first-secret-9';

  it('when the admin creates a user, then one entry names the user and the role, never the password', async () => {
    const before = await lastId();
    const response = await admin.post('/api/auth/users', {
      username: 'auditee',
      password,
      role: 'viewer',
      email: 'auditee@example.com',
    });
    expect(response.status).toBe(201);
    user = response.body.data.user;
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['user.created']);
    expectByAdmin(written[0], {
      action: 'user.created',
      target: 'user auditee',
      detail: 'Role: viewer',
    });
    expect(await storedRow(written[0]!.id)).not.toContain(password);
  });

  it('when the admin edits the name and e-mail, then user.updated names the fields that changed', async () => {
    const before = await lastId();
    const payload = {
      username: 'auditee',
      fullName: 'Audit Ee',
      email: 'ee@example.com',
      role: 'viewer',
      isActive: true,
    };
    expect((await admin.put(`/api/auth/users/${user.id}`, payload)).status).toBe(200);
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['user.updated']);
    expectByAdmin(written[0], {
      action: 'user.updated',
      target: 'user auditee',
      detail: 'Changed: full name, e-mail address',
    });
  });

  it('when the admin changes the role, then user.role-changed says from and to, and no other entry is written', async () => {
    const before = await lastId();
    const payload = {
      username: 'auditee',
      fullName: 'Audit Ee',
      email: 'ee@example.com',
      role: 'admin-viewer',
      isActive: true,
    };
    expect((await admin.put(`/api/auth/users/${user.id}`, payload)).status).toBe(200);
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['user.role-changed']);
    expectByAdmin(written[0], {
      action: 'user.role-changed',
      target: 'user auditee',
      detail: 'Previous role: viewer; Role: admin viewer',
    });
  });

  it('when the admin disables and enables the user, then user.disabled and user.enabled', async () => {
    const payload = {
      username: 'auditee',
      fullName: 'Audit Ee',
      email: 'ee@example.com',
      role: 'admin-viewer',
    };
    const before = await lastId();
    expect(
      (await admin.put(`/api/auth/users/${user.id}`, { ...payload, isActive: false })).status,
    ).toBe(200);
    expect(
      (await admin.put(`/api/auth/users/${user.id}`, { ...payload, isActive: true })).status,
    ).toBe(200);
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['user.disabled', 'user.enabled']);
    for (const entry of written)
      expectByAdmin(entry, { action: entry.action, target: 'user auditee', detail: null });
  });

  it('when an edit is refused, then no entry is written: the entry and the change land together or not at all', async () => {
    const before = await lastId();
    // The username is taken: the update fails inside its transaction.
    const payload = {
      username: 'auditviewer',
      fullName: 'Audit Ee',
      email: 'ee@example.com',
      role: 'admin-viewer',
      isActive: true,
    };
    expectError(await admin.put(`/api/auth/users/${user.id}`, payload), 409, 'CONFLICT');
    expectError(await admin.delete(`/api/auth/users/${adminId}`), 403, 'FORBIDDEN');
    expect(await since(before)).toEqual([]);
  });

  it('when the admin resets the password, then user.password-reset, and the new password is nowhere in the database', async () => {
    const newPassword = 'reset-secret-4242';
    const before = await lastId();
    expect(
      (await admin.put(`/api/auth/users/${user.id}/reset-password`, { newPassword })).status,
    ).toBe(200);
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['user.password-reset']);
    expectByAdmin(written[0], { action: 'user.password-reset', target: 'user auditee' });
    expect(await storedRow(written[0]!.id)).not.toContain(newPassword);
    expect(JSON.stringify(await entries())).not.toContain(newPassword);
    expect(await databaseText(portal)).not.toContain(newPassword);
  });

  it('when the admin deletes the user, then user.deleted names them, and the entry outlives them', async () => {
    const before = await lastId();
    expect((await admin.delete(`/api/auth/users/${user.id}`)).status).toBe(200);
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['user.deleted']);
    expectByAdmin(written[0], {
      action: 'user.deleted',
      target: 'user auditee',
      detail: 'Role: admin viewer',
    });
    expect((await newest('user.created'))?.target).toBe('user auditee');
  });
});

describe('consignees', () => {
  let customer: TestUser;
  let ids: number[];
  let names: Map<number, string>;

  beforeAll(async () => {
    customer = await createUser(admin, 'auditcustomer', 'viewer');
  });

  it('when the admin imports consignees, then consignees.imported with the counts', async () => {
    const before = await lastId();
    const response = await admin.post('/api/consignees/import');
    expect(response.status).toBe(200);
    const { imported, updated, deleted, errors } = response.body.data;
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['consignees.imported']);
    expectByAdmin(written[0], {
      action: 'consignees.imported',
      target: 'consignees',
      detail: `Imported: ${imported}; Updated: ${updated}; Deleted: ${deleted}; Skipped: ${errors.length}`,
    });
    const consignees: Array<{ id: number; name: string }> = (await admin.get('/api/consignees'))
      .body.data;
    ids = consignees.slice(0, 4).map((consignee) => consignee.id);
    names = new Map(consignees.map((consignee) => [consignee.id, consignee.name]));
  });

  it('when the admin assigns, removes and reassigns, one by one and in bulk, then an entry each, naming the user and the consignees', async () => {
    const [a, b, c, d] = ids as [number, number, number, number];
    const before = await lastId();
    const calls = [
      () => admin.post(`/api/consignees/user/${customer.id}/assign`, { consigneeIds: [a, b] }),
      () =>
        admin.post('/api/consignees/bulk-add-user', { consigneeIds: [b, c], userId: customer.id }),
      () => admin.post(`/api/consignees/${d}/add-user`, { userId: customer.id }),
      () => admin.delete(`/api/consignees/${d}/remove-user/${customer.id}`),
      () => admin.post(`/api/consignees/reassign/${d}`, { userId: customer.id }),
      () =>
        admin.post('/api/consignees/bulk-reassign', { consigneeIds: [a, c], userId: customer.id }),
    ];
    for (const call of calls) {
      const response = await call();
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
    const written = await since(before);
    const target = 'user auditcustomer';
    const one = `Consignee: ${d}; Consignee name: ${JSON.stringify(names.get(d))}`;
    expect(written.map((entry) => [entry.action, entry.detail])).toEqual([
      [
        'consignee.assigned',
        `Consignees: ${a}, ${b}; Number of consignees: 2; Added: 2; Skipped: 0`,
      ],
      [
        'consignee.assigned',
        `Consignees: ${b}, ${c}; Number of consignees: 2; Added: 1; Skipped: 1`,
      ],
      ['consignee.assigned', one],
      ['consignee.removed', one],
      ['consignee.reassigned', one],
      ['consignee.reassigned', `Consignees: ${a}, ${c}; Number of consignees: 2`],
    ]);
    for (const entry of written) expectByAdmin(entry, { action: entry.action, target });
  });

  it('when an assignment is refused (an admin is not assigned), then no entry', async () => {
    const before = await lastId();
    expectError(
      await admin.post(`/api/consignees/${ids[0]}/add-user`, { userId: adminId }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await since(before)).toEqual([]);
  });
});

describe('branding', () => {
  it('when the admin uploads and deletes the logo and the background and sets the opacity, then an entry each', async () => {
    const before = await lastId();
    expect(
      (await uploadImage(admin, 'logo', pngFile('brand-logo.png'), { headers: FORWARDED })).status,
    ).toBe(200);
    expect((await admin.delete('/api/logo/current')).status).toBe(200);
    expect(
      (
        await uploadImage(admin, 'background', pngFile('harbour.png', { width: 64, height: 48 }), {
          headers: FORWARDED,
        })
      ).status,
    ).toBe(200);
    expect((await admin.delete('/api/background/current')).status).toBe(200);
    expect((await admin.put('/api/background/opacity', { opacity: 0.75 })).status).toBe(200);
    const written = await since(before);
    expect(written.map((entry) => [entry.action, entry.target])).toEqual([
      ['branding.logo-changed', 'logo'],
      ['branding.logo-removed', 'logo'],
      ['branding.background-changed', 'background'],
      ['branding.background-removed', 'background'],
      ['branding.opacity-changed', 'card opacity'],
    ]);
    for (const entry of written)
      expectByAdmin(entry, { action: entry.action, target: entry.target });
    expect(written[0]!.detail).toMatch(
      /^File name: "brand-logo\.png"; Type: image\/png; Bytes: [\d,]+$/,
    );
    expect(written[1]!.detail).toBe('File name: "brand-logo.png"');
    expect(written[2]!.detail).toMatch(/^File name: "harbour\.png"; /);
    expect(written[4]!.detail).toBe('From: 0.9; To: 0.75');
  });

  it('when there is no logo to delete, then 404 and no entry', async () => {
    const before = await lastId();
    expectError(await admin.delete('/api/logo/current'), 404, 'NOT_FOUND');
    expect(await since(before)).toEqual([]);
  });
});

describe('provider tokens and the sync', () => {
  it('when the admin saves, refreshes and clears tokens and connects through OAuth2, then an entry each, and no token value in any', async () => {
    const pair = await connect(portal);
    const before = await lastId();
    expect(
      (await admin.post('/api/tokens/update', { ...pair, refreshTokenExpirySeconds: 86_400 }))
        .status,
    ).toBe(200);
    portal.clock.advance(1_100);
    const refreshed = await admin.post('/api/tokens/refresh');
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect((await admin.delete('/api/tokens/clear')).status).toBe(200);

    const started = await admin.post('/api/tokens/oauth/authorize');
    expect(started.status).toBe(200);
    const authorizationUrl = new URL(started.body.data.authorizationUrl);
    const consent = await decide(portal, authorizationUrl.searchParams, 'authorize');
    const callback = new URL(consent.headers.get('location')!);
    const page = await admin.get(callback.pathname + callback.search);
    expect(page.status).toBe(200);

    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual([
      'provider-tokens.saved',
      'provider-tokens.refreshed',
      'provider-tokens.cleared',
      'provider.oauth-connected',
    ]);
    for (const entry of written)
      expectByAdmin(entry, { action: entry.action, target: 'provider tokens' });
    expect(written[0]!.detail).toMatch(
      /^Source: entered by hand; Access token valid until: .+; Refresh token: yes; Refresh token valid until: .+$/,
    );
    expect(written[2]!.detail).toBe('Outcome: revoked at the provider');
    expect(written[3]!.detail).toMatch(/^Source: OAuth2 connection; /);
    const stored = await Promise.all(written.map((entry) => storedRow(entry.id)));
    for (const value of [pair.accessToken, pair.refreshToken])
      expect(stored.join('\n')).not.toContain(value);
    expect(stored.join('\n')).not.toMatch(/eyJ[\w-]+\.eyJ/);
  });

  it('when the admin starts a sync, then sync.started', async () => {
    const before = await lastId();
    const response = await admin.post('/api/sync');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const written = await since(before);
    expect(written.map((entry) => entry.action)).toEqual(['sync.started']);
    expectByAdmin(written[0], { action: 'sync.started', target: 'receipts', detail: null });
  });
});

describe('reading the trail', () => {
  it.each([
    ['anonymous', 401, 'AUTHENTICATION_ERROR', () => anonymous],
    ['a viewer', 403, 'FORBIDDEN', () => viewerClient],
  ])(
    'when %s asks for the list or the export, then %i %s',
    async (_who, status, errorType, client) => {
      expectError(await client().get('/api/audit'), status, errorType);
      expectError(await client().get('/api/audit/export'), status, errorType);
    },
  );

  it('when an admin viewer reads, then the same list the admin gets', async () => {
    const [forAdmin, forAdminViewer] = await Promise.all([
      entries('?limit=10'),
      entries('?limit=10', adminViewerClient),
    ]);
    expect(forAdminViewer).toEqual(forAdmin);
    expect(forAdmin.data.length).toBe(10);
  });

  it('when read, then newest first in the receipt list’s envelope, and the pages follow on without gaps or repeats', async () => {
    const all = await entries('?limit=100');
    expect(Object.keys(all).sort()).toEqual(['data', 'pagination', 'success']);
    expect(Object.keys(all.pagination).sort()).toEqual([
      'currentPage',
      'hasNextPage',
      'hasPrevPage',
      'itemsPerPage',
      'totalItems',
      'totalPages',
    ]);
    const times = all.data.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const total = all.pagination.totalItems;
    expect(total).toBeGreaterThan(20);

    const pages = await Promise.all([1, 2, 3].map((page) => entries(`?limit=7&page=${page}`)));
    expect(pages.flatMap((page) => page.data.map((entry) => entry.id))).toEqual(
      all.data.slice(0, 21).map((entry) => entry.id),
    );
    expect(pages[1]!.pagination).toEqual({
      currentPage: 2,
      itemsPerPage: 7,
      totalItems: total,
      totalPages: Math.ceil(total / 7),
      hasNextPage: true,
      hasPrevPage: true,
    });
    const beyond = await entries(`?limit=7&page=${Math.ceil(total / 7) + 1}`);
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toMatchObject({ hasNextPage: false, hasPrevPage: true });
    expect((await entries()).pagination.itemsPerPage).toBe(25);
  });

  it('when filtered by actor and action, then only those entries', async () => {
    const byAction = await entries('?action=consignee.assigned');
    expect(byAction.data.length).toBe(3);
    expect(new Set(byAction.data.map((entry) => entry.action))).toEqual(
      new Set(['consignee.assigned']),
    );
    const byAdmin = await entries('?actor=ADMIN&limit=100');
    const everything = await entries('?limit=100');
    expect(byAdmin.data.map((entry) => entry.id)).toEqual(
      everything.data.filter((entry) => entry.actorName === 'admin').map((entry) => entry.id),
    );
    expect(byAdmin.data.length).toBeGreaterThan(20);
    expect((await entries('?actor=auditviewer')).data).toEqual([]);
    const both = await entries('?actor=admin&action=user.created');
    expect(both.data.map((entry) => entry.target)).toEqual([
      'user auditcustomer',
      'user auditee',
      'user auditadminviewer',
      'user auditviewer',
    ]);
  });

  it('when filtered by days, then from and to are whole UTC days, both included', async () => {
    const today = new Date(portal.clock.now()).toISOString().slice(0, 10);
    const dayOf = (offset: number) =>
      new Date(Date.parse(today) + offset * DAY_MS).toISOString().slice(0, 10);
    const total = (await entries('?limit=1')).pagination.totalItems;
    expect((await entries(`?from=${today}&to=${today}&limit=1`)).pagination.totalItems).toBe(total);
    expect((await entries(`?to=${dayOf(-1)}`)).data).toEqual([]);
    expect((await entries(`?from=${dayOf(1)}`)).data).toEqual([]);

    // Two days on, one more action: only it is on that day.
    portal.clock.advance(2 * DAY_MS);
    await admin.login('admin', ADMIN_PASSWORD);
    await createUser(admin, 'auditlater', 'viewer');
    const later = await entries(`?from=${dayOf(2)}&action=user.created`);
    expect(later.data.map((entry) => entry.target)).toEqual(['user auditlater']);
    expect((await entries(`?from=${today}&to=${dayOf(1)}&limit=1`)).pagination.totalItems).toBe(
      total,
    );
  });

  it.each([
    ['?action=user.exploded', 'Unknown action: user.exploded'],
    ['?from=2026-02-30', 'from must be a date written as YYYY-MM-DD'],
    ['?to=yesterday', 'to must be a date written as YYYY-MM-DD'],
    ['?from=2026-03-02&to=2026-03-01', 'from must not be later than to'],
    ['?page=0', 'page must be a whole number from 1 to 1000000'],
    ['?limit=101', 'limit must be a whole number from 1 to 100'],
    [`?actor=${'a'.repeat(129)}`, 'actor must be at most 128 characters'],
    ['?actor=ad%00min', 'actor must not contain control characters'],
  ])(
    'when the query is %s, then 400 VALIDATION_ERROR saying so, for the list and the export',
    async (query, message) => {
      expectError(await admin.get(`/api/audit${query}`), 400, 'VALIDATION_ERROR', message);
      if (!/page|limit/.test(query))
        expectError(await admin.get(`/api/audit/export${query}`), 400, 'VALIDATION_ERROR', message);
    },
  );
});

/** Downloads as a browser does, keeping the raw bytes (Response.text() would drop the byte order mark). */
async function download(query = '', headers: Record<string, string> = {}) {
  const response = await fetch(`${portal.url}/api/audit/export${query}`, {
    headers: { Cookie: admin.cookie!, ...headers },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    rows: parse(bytes, { bom: true }) as string[][],
  };
}

describe('the CSV export', () => {
  it('when exported, then a UTF-8 CSV attachment with the mark and a header row, the list’s entries in its order', async () => {
    const { status, headers, bytes, rows } = await download('?actor=admin');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toBe(
      `attachment; filename="activity-${new Date(portal.clock.now()).toISOString().slice(0, 10)}.csv"`,
    );
    expect(headers.get('cache-control')).toBe('no-store');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8', 3)).toMatch(/^Time,User,Action,Target,IP address,Detail\r\n/);
    const listed = await entries('?actor=admin&limit=100');
    expect(rows.slice(1)).toEqual(
      listed.data.map((entry) => [
        entry.at,
        entry.actorName,
        entry.action,
        entry.target ?? '',
        entry.clientAddress ?? '',
        entry.detail ?? '',
      ]),
    );
  });

  it('when exported with a filter and in Dutch, then only those entries, under a Dutch header', async () => {
    const { rows } = await download('?action=consignee.reassigned', {
      'Accept-Language': 'nl-NL,nl;q=0.9',
    });
    expect(rows[0]).toEqual(['Tijdstip', 'Gebruiker', 'Actie', 'Onderwerp', 'IP-adres', 'Details']);
    expect(rows.slice(1).map((row) => row[2])).toEqual([
      'consignee.reassigned',
      'consignee.reassigned',
    ]);
  });

  it('when more entries match than one batch holds, then each comes once, newest first', async () => {
    const count = 2_345;
    const start = portal.clock.now() - 5 * DAY_MS;
    // Many in the same millisecond: the order then goes by id, across batch boundaries too.
    await portal.portal.db.models.AuditEntry.bulkCreate(
      Array.from({ length: count }, (_, index) => ({
        at: new Date(start + Math.floor(index / 3)),
        actorId: null,
        actorName: 'bulk',
        action: 'sync.started',
        target: `run ${index}`,
        clientAddress: null,
        detail: null,
      })),
    );
    const { rows } = await download('?actor=bulk');
    expect(rows.slice(1).map((row) => row[3])).toEqual(
      Array.from({ length: count }, (_, index) => `run ${count - 1 - index}`),
    );
  });
});

describe('the Activity page', () => {
  it('when the admin opens it filtered by an action, then the entries of that action with their translated name; a bad filter is a 400 that says why', async () => {
    const page = await admin.get('/admin/activity?action=user.deleted');
    expect(page.status).toBe(200);
    expect(page.body).toContain('user auditee');
    expect(page.body).not.toContain('user auditcustomer');
    expect(page.body).toMatch(/<option value="user\.deleted" selected[^>]*>User deleted<\/option>/);
    const dutch = await admin.get('/admin/activity?action=user.deleted', {
      headers: { 'Accept-Language': 'nl' },
    });
    expect(dutch.body).toMatch(
      /<option value="user\.deleted" selected[^>]*>Gebruiker verwijderd<\/option>/,
    );
    expect(dutch.body).toContain('user auditee');
    const refused = await admin.get('/admin/activity?from=someday');
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('from must be a date written as YYYY-MM-DD');
  });

  it('when an admin-viewer opens it, then it is theirs to read, with its menu entry; a customer is sent to the dashboard', async () => {
    // Signed in afresh: the days the earlier tests moved the clock on have ended their sessions.
    const adminViewer = await signIn(portal, {
      username: 'auditadminviewer',
      password: 'auditadminviewer-password',
    });
    const forAdminViewer = await adminViewer.get('/admin/activity');
    expect(forAdminViewer.status).toBe(200);
    expect(forAdminViewer.body).toContain('href="/admin/activity"');
    expect(forAdminViewer.body).not.toContain('href="/admin/users"');
    const customer = await signIn(portal, {
      username: 'auditviewer',
      password: 'auditviewer-password',
    });
    const forCustomer = await customer.get('/admin/activity');
    expect(forCustomer.status).toBe(302);
    expect(forCustomer.headers.get('location')).toBe('/dashboard');
  });
});

describe('retention', () => {
  it('when housekeeping runs, then entries older than AUDIT_RETENTION_DAYS (365) are gone and recent ones kept', async () => {
    const before = (await entries('?limit=1')).pagination.totalItems;
    const lastOld = (await entries('?limit=1')).data[0]!.id;
    portal.clock.advance(300 * DAY_MS);
    await admin.login('admin', ADMIN_PASSWORD);
    await createUser(admin, 'auditrecent', 'viewer');
    const recent = await newest('user.created');
    expect(recent?.target).toBe('user auditrecent');

    // Nothing is a year old yet.
    await portal.portal.keepHouse();
    expect((await entries('?limit=1')).pagination.totalItems).toBeGreaterThan(before);

    portal.clock.advance(70 * DAY_MS);
    await admin.login('admin', ADMIN_PASSWORD);
    await portal.portal.keepHouse();
    const cutoff = portal.clock.now() - 365 * DAY_MS;
    const [old] = await queryDatabase<{ count: number }>(
      portal,
      'SELECT COUNT(*) AS count FROM audit_entries WHERE id <= ?',
      [lastOld],
    );
    expect(old!.count).toBe(0);
    const left = (await entries('?limit=100')).data;
    expect(left.map((entry) => entry.id)).toContain(recent!.id);
    for (const entry of left) expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(cutoff);
  });
});
