// `npm run backup -- <dir>`: one file, <dir>/portal-backup-<time>.tar.gz, with a consistent copy of the
// database (taken while the portal runs), the app secret and the uploads. `npm run restore` reads it.
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { create } from 'tar';
import {
  BACKUP_FORMAT,
  ENTRIES,
  Refusal,
  config,
  copySqlite,
  databaseKind,
  runMain,
  runPostgresTool,
} from './lib/portal-data.mjs';

async function readSecret() {
  if (config.appSecret) return config.appSecret;
  const stored = (await readFile(config.appSecretFile, 'utf8').catch(() => '')).trim();
  if (!stored)
    throw new Refusal(
      `No app secret at ${config.appSecretFile} and APP_SECRET is unset: has the portal been started with this configuration?`,
    );
  return stored;
}

async function copyDatabase(staging) {
  if (databaseKind === 'sqlite') {
    await copySqlite(config.sqliteFile, path.join(staging, ENTRIES.sqlite)).catch((error) => {
      throw error.code === 'SQLITE_CANTOPEN'
        ? new Refusal(`No database at ${config.sqliteFile}: check DATABASE_URL.`)
        : error;
    });
  } else {
    // One snapshot of the whole database (pg_dump reads in a single transaction); owners and grants are the target's.
    await runPostgresTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${path.join(staging, ENTRIES.postgres)}`,
    ]);
  }
}

async function main() {
  const dir = process.argv[2];
  if (!dir) throw new Refusal('Usage: npm run backup -- <folder where the backup file is written>');
  await mkdir(dir, { recursive: true });
  const staging = await mkdtemp(path.join(dir, '.portal-backup-'));
  try {
    const secret = await readSecret();
    const createdAt = new Date();
    await copyDatabase(staging);
    // After the database: a logo replaced meanwhile leaves its new file, which the copy does not name, rather than a missing one.
    const hasUploads = await cp(config.uploadsDir, path.join(staging, ENTRIES.uploads), {
      recursive: true,
    }).then(
      () => true,
      (error) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    await writeFile(path.join(staging, ENTRIES.secret), `${secret}\n`, { mode: 0o600 });
    await writeFile(
      path.join(staging, ENTRIES.manifest),
      JSON.stringify({ format: BACKUP_FORMAT, database: databaseKind, createdAt }, null, 2),
    );

    const name = `portal-backup-${createdAt.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    const partial = path.join(dir, `${name}.partial`);
    const entries = [
      ENTRIES.manifest,
      ENTRIES.secret,
      ENTRIES[databaseKind],
      ...(hasUploads ? [ENTRIES.uploads] : []),
    ];
    // The archive holds the secret: readable by the owner only.
    await create({ gzip: true, file: partial, cwd: staging, mode: 0o600, portable: true }, entries);
    await rename(partial, path.join(dir, name));
    console.log(path.resolve(dir, name));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

runMain(main);
