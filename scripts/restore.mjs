// `npm run restore -- <backup file> [--force]`: brings a stopped portal back from a file of
// `npm run backup`: its database, app secret and uploads, in the places the portal's configuration names.
// It refuses while the database is in use, and replaces a database holding data only with --force.
import { chmod, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { extract } from 'tar';
import sqlite3 from 'sqlite3';
import {
  BACKUP_FORMAT,
  ENTRIES,
  Refusal,
  config,
  databaseKind,
  onPostgres,
  openSqlite,
  runMain,
  runPostgresTool,
  sqliteAll,
  sqliteClose,
  sqliteInUse,
} from './lib/portal-data.mjs';

const USAGE = 'Usage: npm run restore -- <backup file> [--force]';

/** What the target database holds now: whether someone uses it, and how many tables it has. */
async function inspectTarget() {
  if (databaseKind === 'sqlite') {
    const db = await openSqlite(config.sqliteFile, sqlite3.OPEN_READONLY).catch(() => null);
    if (!db) return { inUse: false, tables: 0 };
    const [{ tables }] = await sqliteAll(
      db,
      "SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table'",
    ).finally(() => sqliteClose(db));
    return { inUse: await sqliteInUse(config.sqliteFile), tables };
  }
  return onPostgres(async (client) => {
    const sessions = await client.query(
      "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
    );
    const tables = await client.query(
      "SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = 'public'",
    );
    return { inUse: sessions.rows[0].count > 0, tables: tables.rows[0].count };
  });
}

const targetName = () => config.sqliteFile ?? new URL(config.databaseUrl).pathname.slice(1);

async function restoreDatabase(unpacked, replace) {
  if (databaseKind === 'sqlite') {
    // Into place by a rename, so the portal never finds half a file; a log of the old database would be replayed into it.
    const incoming = `${config.sqliteFile}.restoring`;
    await rename(path.join(unpacked, ENTRIES.sqlite), incoming);
    // Owner only, as the portal creates it: it holds password hashes, e-mail addresses and the encrypted tokens.
    await chmod(incoming, 0o600);
    await Promise.all(
      ['-wal', '-shm'].map((suffix) => rm(`${config.sqliteFile}${suffix}`, { force: true })),
    );
    await rename(incoming, config.sqliteFile);
    return;
  }
  // The database's owner may drop and recreate its public schema (PostgreSQL 15: owned by pg_database_owner).
  if (replace)
    await onPostgres((client) => client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public'));
  await runPostgresTool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--single-transaction',
    '--exit-on-error',
    path.join(unpacked, ENTRIES.postgres),
  ]);
}

async function restoreSecret(secret) {
  if (config.appSecret) return;
  const incoming = `${config.appSecretFile}.restoring`;
  await writeFile(incoming, `${secret}\n`, { mode: 0o600 });
  await rename(incoming, config.appSecretFile);
}

async function restoreUploads(unpacked) {
  await rm(config.uploadsDir, { recursive: true, force: true });
  await mkdir(config.uploadsDir, { recursive: true });
  await cp(path.join(unpacked, ENTRIES.uploads), config.uploadsDir, { recursive: true }).catch(
    (error) => {
      if (error.code !== 'ENOENT') throw error;
    },
  );
}

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const [file, ...rest] = args.filter((arg) => arg !== '--force');
  if (!file || rest.length > 0) throw new Refusal(USAGE);

  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const unpacked = await mkdtemp(path.join(config.dataDir, '.portal-restore-'));
  try {
    await extract({ file, cwd: unpacked, strict: true }).catch((error) => {
      throw new Refusal(`${file} is not a backup of the portal: ${error.message}`);
    });
    const manifest = JSON.parse(
      await readFile(path.join(unpacked, ENTRIES.manifest), 'utf8').catch(() => 'null'),
    );
    if (manifest?.format !== BACKUP_FORMAT)
      throw new Refusal(
        `${file} is not a backup of the portal (no manifest of format ${BACKUP_FORMAT}).`,
      );
    if (manifest.database !== databaseKind) {
      throw new Refusal(
        `${file} holds a ${manifest.database} database, but DATABASE_URL names a ${databaseKind} one: restore it with a DATABASE_URL of its kind.`,
      );
    }
    const secret = (await readFile(path.join(unpacked, ENTRIES.secret), 'utf8')).trim();
    if (config.appSecret && config.appSecret !== secret) {
      throw new Refusal(
        "APP_SECRET differs from the backup's secret, so the stored tokens could not be read: set APP_SECRET to the backup's (its app-secret file) or unset it.",
      );
    }

    const target = await inspectTarget();
    if (target.inUse)
      throw new Refusal(
        `The database ${targetName()} is in use: stop the portal (and anything else connected to it) first.`,
      );
    if (target.tables > 0 && !force) {
      throw new Refusal(
        `The database ${targetName()} already holds data, which restoring replaces. To replace it, run again with --force: npm run restore -- ${file} --force`,
      );
    }

    await restoreDatabase(unpacked, target.tables > 0);
    await restoreSecret(secret);
    await restoreUploads(unpacked);
    console.log(
      `Restored the backup of ${manifest.createdAt} into ${targetName()}. Start the portal to use it.`,
    );
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}

runMain(main);
