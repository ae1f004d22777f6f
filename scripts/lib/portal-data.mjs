// What a backup holds and where it goes: the portal's own configuration (src/server/config.ts, read
// by Node's type stripping, so the rules live in one place), and the database tools both scripts use.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { loadConfig } from '../../src/server/config.ts';

/** The portal's configuration, as `npm run serve` reads it from the environment and `.env`. */
export const config = loadConfig(process.env);

/** The names inside a backup archive. */
export const ENTRIES = {
  manifest: 'manifest.json',
  secret: 'app-secret',
  sqlite: 'database.sqlite',
  postgres: 'database.pgdump',
  uploads: 'uploads',
};

export const BACKUP_FORMAT = 1;
export const databaseKind = config.sqliteFile ? 'sqlite' : 'postgres';

/** A refusal the operator can act on: printed without a stack trace. */
export class Refusal extends Error {}

export function runMain(main) {
  main().catch((error) => {
    console.error(error instanceof Refusal ? error.message : error);
    process.exit(1);
  });
}

// ---- SQLite -------------------------------------------------------------------------------------

const BUSY_TIMEOUT_MS = 5_000;

export function openSqlite(file, mode) {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (error) => (error ? reject(error) : resolve(db)));
  });
}

export const sqliteExec = (db, sql) =>
  new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
export const sqliteAll = (db, sql, params = []) =>
  new Promise((resolve, reject) =>
    db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows))),
  );
export const sqliteClose = (db) =>
  new Promise((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));

/** A consistent copy of the live database (VACUUM INTO reads one snapshot, beside the portal's writes). */
export async function copySqlite(source, target) {
  const db = await openSqlite(source, sqlite3.OPEN_READONLY);
  try {
    db.configure('busyTimeout', BUSY_TIMEOUT_MS);
    await sqliteAll(db, 'VACUUM INTO ?', [target]);
  } finally {
    await sqliteClose(db);
  }
}

/**
 * Whether another process has the database open: the portal keeps WAL connections open while it
 * runs, and an exclusive lock is refused while any is.
 */
export async function sqliteInUse(file) {
  const db = await openSqlite(file, sqlite3.OPEN_READWRITE);
  try {
    await sqliteExec(db, 'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; ROLLBACK;');
    return false;
  } catch (error) {
    if (error.code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    await sqliteClose(db);
  }
}

// ---- PostgreSQL ---------------------------------------------------------------------------------

export async function onPostgres(work) {
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL client tool (pg_dump, pg_restore) for the server's version: pg_dump refuses a server
 * newer than itself, and Debian keeps each installed version's tools in /usr/lib/postgresql/N/bin.
 */
async function postgresTool(name) {
  const versionNumber = await onPostgres(async (client) =>
    Number((await client.query('SHOW server_version_num')).rows[0].server_version_num),
  );
  const versioned = `/usr/lib/postgresql/${Math.floor(versionNumber / 10_000)}/bin/${name}`;
  return existsSync(versioned) ? versioned : name;
}

/** Runs pg_dump or pg_restore on DATABASE_URL; the password goes through the environment, not the command line. */
export async function runPostgresTool(name, args) {
  const url = new URL(config.databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const tool = await postgresTool(name);
  await new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${url.href}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...(password && { PGPASSWORD: password }) },
    });
    child.once('error', (error) =>
      reject(
        new Refusal(
          `${tool} could not be run (${error.message}): install PostgreSQL's client tools (apt-get install postgresql-client).`,
        ),
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Refusal(`${name} failed with exit code ${code}.`)),
    );
  });
}
