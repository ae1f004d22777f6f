// `npm run release`: after the build, one file with what a server needs to run the portal, and nothing of
// the build tools: release/freight-portal-<version>.tar.gz, unpacked in a folder of its own, then
// `npm ci --omit=dev` there (README.md, "Running in production").
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { create } from 'tar';

/** The server and its tools: the scripts run on the build, backup and restore on the configuration's source. */
const FILES = [
  'package.json',
  'package-lock.json',
  'README.md',
  'server.mjs',
  'dist',
  'scripts/require-node.cjs',
  'scripts/admin.mjs',
  'scripts/migrate.mjs',
  'scripts/backup.mjs',
  'scripts/restore.mjs',
  'scripts/lib/built-portal.mjs',
  'scripts/lib/compile-cache.mjs',
  'scripts/lib/portal-data.mjs',
  'src/server/config.ts',
];

if (!existsSync('dist/server/entry.mjs')) {
  console.error('No built portal in dist/: run `npm run build` first.');
  process.exit(1);
}
const { name, version } = JSON.parse(await readFile('package.json', 'utf8'));
const file = `release/${name}-${version}.tar.gz`;
await mkdir('release', { recursive: true });
await create({ gzip: true, file, portable: true, prefix: `${name}-${version}` }, FILES);
console.log(file);
