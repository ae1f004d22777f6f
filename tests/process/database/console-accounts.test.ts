/**
 * `npm run admin -- create-admin` and `list-admins` against a running portal's database, on SQLite and
 * on PostgreSQL: the new admin signs in, the creation is audited under `console`, and the list shows
 * every admin and admin-viewer with their state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/api-client';
import { createUser, queryDatabase, signedInAdmin } from '../../support/api-steps';
import { runScript } from '../../support/console';
import { startPortal, type Portal } from '../../support/portal';

let portal: Portal;
let admin: ApiClient;

beforeAll(async () => {
  portal = await startPortal();
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
});

const login = (username: string, password: string | undefined) =>
  new ApiClient(portal).post('/api/auth/login', { username, password });

describe('create-admin', () => {
  it('when run without a password, then it prints a generated one once, the admin signs in with it, and the audit trail names the console', async () => {
    const run = await runScript(portal, 'admin', 'create-admin', 'Night-Ops');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Admin "night-ops" created\.\n/);
    const password =
      /^Password \(shown only once; change it under Profile Settings\): (\S+)$/m.exec(
        run.stdout,
      )?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const signedIn = await login('night-ops', password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user.role).toBe('admin');
    expect(
      await queryDatabase(
        portal,
        `SELECT "actorId", target, detail FROM audit_entries WHERE "actorName" = 'console' AND action = 'user.created'`,
      ),
    ).toContainEqual({
      actorId: null,
      target: 'user night-ops',
      detail: JSON.stringify({ role: 'admin' }),
    });
  });

  it('when given --password, then that password signs in and none is printed', async () => {
    const run = await runScript(
      portal,
      'admin',
      'create-admin',
      'day-ops',
      '--password',
      'day-ops-secret',
    );
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('Admin "day-ops" created.');
    expect((await login('day-ops', 'day-ops-secret')).status).toBe(200);
  });

  it.each([
    [['create-admin', 'admin'], 'Username already exists'],
    [['create-admin', 'x'], /^Username must be at least/],
    [['create-admin', 'short-pass', '--password', 'abc'], 'Password must be at least 6 characters'],
    [['create-admin'], 'Expected one username: create-admin <username> [--password <password>]'],
  ])('when run as `npm run admin -- %j`, then exit 1 with the reason', async (args, message) => {
    const run = await runScript(portal, 'admin', ...args);
    expect(run.status).toBe(1);
    if (typeof message === 'string') expect(run.stderr.trim()).toBe(message);
    else expect(run.stderr.trim()).toMatch(message);
    expect(run.stdout).toBe('');
  });
});

describe('list-admins', () => {
  it('when run, then every admin and admin-viewer is listed with role, active, two-factor sign-in and last sign-in, and no customer', async () => {
    await createUser(admin, 'list-viewer', 'admin-viewer');
    await createUser(admin, 'list-customer', 'viewer');
    const run = await runScript(portal, 'admin', 'list-admins');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^USERNAME\s+ROLE\s+ACTIVE\s+2FA\s+LAST SIGN-IN$/);
    expect(lines.find((line) => line.startsWith('admin '))).toMatch(
      /^admin\s+admin\s+yes\s+off\s+\d{4}-\d\d-\d\dT[\d:.]+Z$/,
    );
    expect(lines.find((line) => line.startsWith('list-viewer '))).toMatch(
      /^list-viewer\s+admin-viewer\s+yes\s+off\s+never$/,
    );
    expect(run.stdout).not.toContain('list-customer');
  });
});
