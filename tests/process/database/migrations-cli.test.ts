/**
 * `npm run migrate -- status | down | up` on the built code, on SQLite and PostgreSQL, and the server's
 * refusal to start on a database a newer version has migrated.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDatabase, writeDatabase } from '../../support/api-steps';
import { runScript } from '../../support/console';
import { startPortal, type Portal } from '../../support/portal';

const ROOT = path.resolve(import.meta.dirname, '../../..');

let portal: Portal;
let migrations: string[];

beforeAll(async () => {
  migrations = (await readdir(path.join(ROOT, 'db/migrations')))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
  portal = await startPortal();
  await portal.stop({ keepDir: true });
});

afterAll(async () => {
  await portal?.stop();
});

const last = () => migrations.at(-1)!;

describe('npm run migrate', () => {
  it('when asked for the status of a migrated database, then every migration is listed as applied', async () => {
    const run = await runScript(portal, 'migrate', 'status');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      `${migrations.map((name) => `applied  ${name}\n`).join('')}${migrations.length} applied, 0 pending.\n`,
    );
  });

  it('when told down, then the last migration is reverted and shows as pending; up applies it again and the portal starts', async () => {
    const down = await runScript(portal, 'migrate', 'down');
    expect(down.stderr).toBe('');
    expect(down.stdout.trim()).toBe(`reverted ${last()}`);
    const status = await runScript(portal, 'migrate', 'status');
    expect(status.stdout).toContain(`pending  ${last()}\n`);
    expect(status.stdout).toContain(`${migrations.length - 1} applied, 1 pending.`);

    const up = await runScript(portal, 'migrate', 'up');
    expect(up.stderr).toBe('');
    expect(up.stdout).toBe(`applied  ${last()}\n1 migrations applied.\n`);
    expect((await runScript(portal, 'migrate', 'up')).stdout.trim()).toBe(
      'The database is up to date.',
    );

    const restarted = await startPortal({}, { dir: portal.dir });
    await restarted.stop({ keepDir: true });
  });

  it('when given an unknown command, then exit 1 with the usage', async () => {
    const run = await runScript(portal, 'migrate', 'sideways');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^Unknown arguments "sideways"\.\n\nUsage: npm run migrate -- <command>/,
    );
  });
});

describe('a database a newer version has migrated', () => {
  beforeAll(async () => {
    await writeDatabase(portal, 'INSERT INTO migrations (name) VALUES (?)', [
      '9999-from-a-newer-version',
    ]);
  });

  const refusal =
    'The database has migrations this version of the portal does not know (9999-from-a-newer-version): a newer version has run on it. Install that version again, or restore the backup taken before the upgrade (npm run restore).';

  it('when the server starts on it, then it refuses in one line and exits non-zero', async () => {
    const started = await startPortal({}, { dir: portal.dir }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(started).toMatch(/^portal exited with 1:\n/);
    // The log is JSON lines (not a terminal): one fatal line, without a stack.
    const logged = started!
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; msg: string; err?: unknown });
    const failures = logged.filter((line) => line.msg.startsWith('The portal could not start'));
    expect(failures.map((line) => [line.level, line.msg, line.err])).toEqual([
      ['fatal', `The portal could not start: ${refusal}`, undefined],
    ]);
    expect(started).not.toMatch(/^\s+at /m);
  });

  it('when migrate or an admin command runs on it, then they refuse the same way and change nothing', async () => {
    const down = await runScript(portal, 'migrate', 'down');
    expect(down.status).toBe(1);
    expect(down.stderr.trim()).toBe(refusal);
    const status = await runScript(portal, 'migrate', 'status');
    expect(status.status).toBe(1);
    expect(status.stdout).toContain(
      'applied  9999-from-a-newer-version  (unknown to this version)\n',
    );
    const admin = await runScript(portal, 'admin', 'list-admins');
    expect(admin.status).toBe(1);
    expect(admin.stderr.trim()).toBe(refusal);
    expect(await queryDatabase(portal, 'SELECT count(*) AS count FROM migrations')).toEqual([
      { count: migrations.length + 1 },
    ]);
  });
});
