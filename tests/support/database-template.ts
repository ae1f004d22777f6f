/**
 * Vitest's global setup for the projects whose tests start portals: the migrations run once per test
 * run, into a template database, and each test's portal starts on a copy of it
 * (tests/support/test-database.ts), as a portal restarted on a migrated database does. Migrating every
 * test's database anew took 180 ms of CPU a start on SQLite, and 130 ms in the test process plus the
 * server's work on PostgreSQL, a tenth of the in-process tier. The tests of migrations themselves start
 * on an empty database (`emptyDatabase`).
 *
 * The template's place goes to the test processes in the environment (they start after this runs).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { Database } from '~/server/db/database';
import { migrateDatabase } from '~/server/db/migrate';
import {
  createPostgresDatabase,
  DEFAULT_TEST_DATABASE_URL,
  dropPostgresDatabase,
  onPostgresServer,
  POSTGRES_TEMPLATE_ENV,
  SQLITE_TEMPLATE_ENV,
} from './test-database';

async function migrated(databaseUrl: string, sqliteFile: string | null): Promise<void> {
  const database = new Database({ databaseUrl, sqliteFile });
  await database.connect();
  try {
    await migrateDatabase(database.sequelize);
    // The copies take the main file only: everything goes into it, and the log is emptied.
    if (sqliteFile) await database.sequelize.query('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await database.close();
  }
}

async function sqliteTemplate(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-template-'));
  const file = path.join(dir, 'portal.sqlite');
  await migrated(`sqlite:${file}`, file);
  process.env[SQLITE_TEMPLATE_ENV] = file;
  return async () => {
    delete process.env[SQLITE_TEMPLATE_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}

async function postgresTemplate(serverUrl: string): Promise<() => Promise<void>> {
  const name = `portal_template_${randomBytes(6).toString('hex')}`;
  const databaseUrl = await createPostgresDatabase(serverUrl, name);
  try {
    await migrated(databaseUrl, null);
    // A database is copied only while nobody is connected to it: autovacuum keeps away from one that
    // allows no connections.
    await onPostgresServer(serverUrl, (client) =>
      client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`),
    );
  } catch (error) {
    await dropPostgresDatabase(serverUrl, name);
    throw error;
  }
  process.env[POSTGRES_TEMPLATE_ENV] = name;
  return async () => {
    delete process.env[POSTGRES_TEMPLATE_ENV];
    await dropPostgresDatabase(serverUrl, name);
  };
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const onPostgres = project.config.env.TEST_DATABASE === 'postgres';
  // Projects run together (test:fast, test:pg) share the first one's template of each kind.
  if (process.env[onPostgres ? POSTGRES_TEMPLATE_ENV : SQLITE_TEMPLATE_ENV]) return;
  if (!onPostgres) return sqliteTemplate();
  return postgresTemplate(process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL);
}
