/**
 * The database a test's portal runs on: a SQLite file in its folder, or, when the test run is on
 * PostgreSQL (TEST_DATABASE=postgres, as the PostgreSQL projects set it), a throwaway database of its
 * own on the server of TEST_DATABASE_URL (the role needs CREATEDB), created on start and dropped on stop.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { stallLimit } from './test-pace.ts';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://portal:portal@127.0.0.1:5432/postgres';

/** The PostgreSQL server to run on, when this run is on PostgreSQL; null for SQLite. */
export const testPostgresUrl =
  process.env.TEST_DATABASE === 'postgres'
    ? process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL
    : process.env.BENCH_DATABASE_URL || null;

/** Where a portal folder's PostgreSQL database is named, so a restart on the folder finds it again. */
const DATABASE_NAME_FILE = 'postgres-database';

/**
 * Where this run's migrated template is, when Vitest's global setup made one
 * (tests/support/database-template.ts): a SQLite file, and a PostgreSQL database's name.
 */
export const SQLITE_TEMPLATE_ENV = 'TEST_SQLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'TEST_POSTGRES_TEMPLATE';

export async function onPostgresServer<T>(
  serverUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The folder's database URL: its SQLite file, or its PostgreSQL database, created the first time. A new
 * database is a copy of the run's migrated template where there is one, unless `empty` (for the tests
 * of the migrations themselves); a folder's existing database is kept.
 */
export async function createTestDatabase(
  dir: string,
  { empty = false }: { empty?: boolean } = {},
): Promise<string> {
  const template = empty
    ? undefined
    : process.env[testPostgresUrl ? POSTGRES_TEMPLATE_ENV : SQLITE_TEMPLATE_ENV];
  if (!testPostgresUrl) {
    const file = path.join(dir, 'portal.sqlite');
    if (template)
      await copyFile(template, file, constants.COPYFILE_EXCL).catch((error) => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      });
    return `sqlite:${file}`;
  }
  const nameFile = path.join(dir, DATABASE_NAME_FILE);
  let name = await readFile(nameFile, 'utf8').catch(() => null);
  if (!name) {
    name = `portal_test_${randomBytes(6).toString('hex')}`;
    await createPostgresDatabase(testPostgresUrl, name, template);
    await writeFile(nameFile, name);
  }
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * Creates the throwaway database `name` on the PostgreSQL server at `serverUrl`, empty or as a copy of
 * the database `template`; answers its URL.
 */
export async function createPostgresDatabase(
  serverUrl: string,
  name: string,
  template?: string,
): Promise<string> {
  await onPostgresServer(serverUrl, async (client) => {
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
    // A throwaway database: a commit need not wait for its WAL to reach the disk (a server crash may
    // lose the last commits, never consistency). Without that wait the PostgreSQL tier took 94 s, not 123 s.
    await client.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Drops the folder's PostgreSQL database, if it has one (a SQLite file goes with the folder). */
export async function dropTestDatabase(dir: string, databaseUrl?: string): Promise<void> {
  if (!testPostgresUrl || databaseUrl?.startsWith('sqlite:')) return;
  const name = await readFile(path.join(dir, DATABASE_NAME_FILE), 'utf8').catch(() => null);
  if (name) await dropPostgresDatabase(testPostgresUrl, name);
}

/** Drops the database `name` on the PostgreSQL server at `serverUrl`, once its last connection has closed. */
export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  // Not WITH (FORCE): that refuses when an autovacuum worker is in the database (it belongs to no role
  // we may signal), while a plain DROP stops autovacuum itself. The portal has stopped by now; a
  // connection still closing is waited out.
  const deadline = Date.now() + stallLimit(30_000);
  for (;;) {
    try {
      await onPostgresServer(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}"`),
      );
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === '55006';
      if (!inUse || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
