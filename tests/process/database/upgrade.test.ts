/**
 * An upgrade from a database an earlier version made: tests/support/upgrade-fixture.mjs writes one with
 * the schema before 0018-accounts (the frozen migrations 0001–0017), with users, a session,
 * receipts with their status history, a queued e-mail, branding and provider tokens. The built portal
 * migrates it at its start; nothing may be lost, and its users sign in. SQLite only: the fixture is a file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/api-client';
import { queryDatabase } from '../../support/api-steps';
import { startPortal, testPostgresUrl, type Portal } from '../../support/portal';

const WRITE_FIXTURE = path.resolve(import.meta.dirname, '../../support/upgrade-fixture.mjs');

const COUNTS = {
  users: 2,
  sessions: 1,
  consignee_assignments: 1,
  receipts: 2,
  packages: 2,
  receipt_status_changes: 2,
  outbox: 1,
  branding_settings: 1,
  provider_tokens: 1,
};

describe.skipIf(testPostgresUrl)('upgrading a database of the version before 0018-accounts', () => {
  let dir: string;
  let portal: Portal;
  let before: Record<string, unknown>[];

  const fixturePortal = () =>
    ({
      dir,
      databaseUrl: `sqlite:${path.join(dir, 'portal.sqlite')}`,
      url: 'http://127.0.0.1:1',
    }) as Portal;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'portal-upgrade-'));
    const written = spawnSync(process.execPath, [WRITE_FIXTURE, dir], { encoding: 'utf8' });
    expect(written.stderr).toBe('');
    expect(written.status).toBe(0);
    before = await queryDatabase(
      fixturePortal(),
      'SELECT "accessToken", "refreshToken" FROM provider_tokens',
    );
    // The fixture's admin keeps its password: ADMIN_PASSWORD only sets up a first admin where none is.
    // A provider nobody answers at: a sync must not replace the fixture's receipts.
    portal = await startPortal(
      { ADMIN_PASSWORD: '', PROVIDER: 'http', PROVIDER_URL: 'http://127.0.0.1:9/api' },
      { dir },
    );
  });

  afterAll(async () => {
    await portal?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('when the portal starts on it, then every later migration has run', async () => {
    const names = await queryDatabase<{ name: string }>(
      portal,
      'SELECT name FROM migrations ORDER BY name',
    );
    expect(names.map(({ name }) => name)).toContain('0018-accounts');
    expect(portal.output()).not.toMatch(/first admin/i);
  });

  it('when its rows are counted, then nothing was lost, and the values are as they were', async () => {
    for (const [table, count] of Object.entries(COUNTS)) {
      expect(await queryDatabase(portal, `SELECT count(*) AS count FROM ${table}`), table).toEqual([
        { count },
      ]);
    }
    expect(
      await queryDatabase(
        portal,
        'SELECT username, role, email, locale, "statusEmails" FROM users ORDER BY id',
      ),
    ).toEqual([
      { username: 'admin', role: 'admin', email: null, locale: null, statusEmails: 0 },
      {
        username: 'acme',
        role: 'viewer',
        email: 'ops@acme.example',
        locale: 'nl',
        statusEmails: 1,
      },
    ]);
    expect(
      await queryDatabase(
        portal,
        'SELECT status FROM receipt_status_changes WHERE "receiptId" = 9002 ORDER BY at',
      ),
    ).toEqual([{ status: 'In Transit' }, { status: 'Delivered' }]);
    expect(await queryDatabase(portal, 'SELECT "cardOpacity" FROM branding_settings')).toEqual([
      { cardOpacity: 0.75 },
    ]);
    expect(
      await queryDatabase(portal, 'SELECT "accessToken", "refreshToken" FROM provider_tokens'),
    ).toEqual(before);
  });

  it('when the customer comes back with the session they had before the upgrade, then they are still signed in', async () => {
    const customer = new ApiClient(portal);
    customer.cookie = 'portal_session=fixture-session-token';
    const profile = await customer.get('/api/auth/profile');
    expect(profile.status).toBe(200);
    expect(profile.body.data.user.username).toBe('acme');
  });

  it('when its users sign in, then the customer sees their receipts and the admin is an admin', async () => {
    const customer = new ApiClient(portal);
    await customer.login('acme', 'fixture-acme-pass');
    const receipts = await customer.get('/api/receipts');
    expect(receipts.status, JSON.stringify(receipts.body)).toBe(200);
    expect(JSON.stringify(receipts.body)).toContain('WR-9002');
    const admin = new ApiClient(portal);
    await admin.login('admin', 'fixture-admin-pass');
    expect((await admin.get('/api/auth/profile')).body.data.user.role).toBe('admin');
  });
});
