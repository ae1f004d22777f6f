/** Start-up: the first admin's generated password, printed once; the app secret kept beside the database. */
import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  newPortalFolder,
  startPortal,
  testPostgresUrl,
  type Portal,
} from '../../support/portal';
import { ApiClient } from '../../support/api-client';

const running: Portal[] = [];
afterAll(async () => {
  for (const portal of running) await portal.stop();
});

const PRINTED_PASSWORD = /password: (\S+)/;

describe('first start without ADMIN_PASSWORD', () => {
  let first: Portal;
  let password: string;
  let secret: string;

  it('when no ADMIN_PASSWORD is set, then a generated password is printed once and it signs in as admin', async () => {
    first = await startPortal({ ADMIN_PASSWORD: '' });
    const output = first.output();
    const match = PRINTED_PASSWORD.exec(output);
    expect(match, output).not.toBeNull();
    password = match![1]!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(output.split(password)).toHaveLength(2); // exactly one occurrence

    const response = await new ApiClient(first).post('/api/auth/login', {
      username: 'admin',
      password,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.user.role).toBe('admin');
  });

  // On PostgreSQL there is no database file to keep it beside: the secret is in db/ of the working
  // directory, shared by every portal the tests start, so its file is checked on SQLite only.
  it.skipIf(testPostgresUrl)(
    'when the portal starts, then app-secret is created beside the database with mode 0600',
    async () => {
      const file = path.join(first.dir, 'app-secret');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      secret = (await readFile(file, 'utf8')).trim();
      expect(secret.length).toBeGreaterThanOrEqual(32);
    },
  );

  it('when restarted on the same database, then no password is printed again, the old one works and the secret is kept', async () => {
    await first.stop({ keepDir: true });
    const second = await startPortal({ ADMIN_PASSWORD: '' }, { dir: first.dir });
    running.push(second);

    expect(second.output()).not.toContain(password);
    expect(second.output()).not.toMatch(PRINTED_PASSWORD);
    expect(second.output()).not.toMatch(/first admin/i);
    expect(
      (await new ApiClient(second).post('/api/auth/login', { username: 'admin', password })).status,
    ).toBe(200);
    if (!testPostgresUrl)
      expect((await readFile(path.join(second.dir, 'app-secret'), 'utf8')).trim()).toBe(secret);
  });
});

describe.skipIf(testPostgresUrl)('the SQLite database file', () => {
  const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

  it('when the portal creates its database in a folder of its own, then the folder is 0700 and the database with its WAL and shared-memory files 0600', async () => {
    const { dir } = await newPortalFolder();
    const dataDir = path.join(dir, 'data');
    const portal = await startPortal(
      { DATABASE_URL: `sqlite:${path.join(dataDir, 'portal.sqlite')}` },
      { dir },
    );
    running.push(portal);
    expect(await modeOf(dataDir)).toBe(0o700);
    for (const file of ['portal.sqlite', 'portal.sqlite-wal', 'portal.sqlite-shm', 'app-secret'])
      expect(await modeOf(path.join(dataDir, file)), file).toBe(0o600);
  });

  it('when an earlier version left the database readable by others, then the next start makes it 0600', async () => {
    const portal = await startPortal();
    await portal.stop({ keepDir: true });
    const file = path.join(portal.dir, 'portal.sqlite');
    await chmod(file, 0o644);
    const restarted = await startPortal({}, { dir: portal.dir });
    running.push(restarted);
    expect(await modeOf(file)).toBe(0o600);
  });
});

describe('first start with credentials the login would refuse', () => {
  it.each([
    [{ ADMIN_PASSWORD: 'short' }, 'Password must be at least 6 characters'],
    [
      { ADMIN_USERNAME: 'admin.ops' },
      'Username must contain only alphanumeric characters, hyphens, and underscores',
    ],
  ])(
    'when started with %j, then the portal refuses to start and says why',
    async (env, message) => {
      await expect(startPortal(env)).rejects.toThrow(message);
    },
  );
});

describe('first start with ADMIN_PASSWORD', () => {
  it('when ADMIN_PASSWORD is set, then the admin signs in with it and the output never shows it', async () => {
    const portal = await startPortal();
    running.push(portal);
    expect(portal.output()).toMatch(/First admin \\"admin\\" created/);
    expect(portal.output()).not.toContain(ADMIN_PASSWORD);
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: 'admin',
          password: ADMIN_PASSWORD,
        })
      ).status,
    ).toBe(200);
  });
});

describe('the built-in sandbox', () => {
  const WARNING =
    /PROVIDER=sandbox: \/sandbox serves generated demo data .*; do not expose this portal as it is/;

  it('when the portal starts with the sandbox (the default), then one line says it serves generated demo data and must not be exposed as it is', async () => {
    const portal = await startPortal();
    running.push(portal);
    expect(portal.output().match(new RegExp(WARNING, 'g'))).toHaveLength(1);
  });

  it('when the portal starts with PROVIDER=http, then no such line is printed', async () => {
    const portal = await startPortal({
      PROVIDER: 'http',
      PROVIDER_URL: 'http://127.0.0.1:9/provider',
    });
    running.push(portal);
    expect(portal.output()).not.toMatch(WARNING);
  });
});
