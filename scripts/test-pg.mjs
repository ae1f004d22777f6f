// `npm run test:pg`: the tests of the database layer on PostgreSQL (the in-process-pg and process-pg
// projects of vitest.config.ts). With TEST_DATABASE_URL set (CI sets it) a server that can't be reached
// is a failure; without it, the default local server is tried, and a machine without PostgreSQL skips
// this leg with a line saying how to add it, so that `npm test` works anywhere.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import pg from 'pg';

const DEFAULT_URL = 'postgres://portal:portal@127.0.0.1:5432/postgres';
const url = process.env.TEST_DATABASE_URL || DEFAULT_URL;
const RESULT_FILE = '.tmp/results/pg.json';

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
try {
  await client.connect();
  await client.end();
} catch (error) {
  if (process.env.TEST_DATABASE_URL) {
    console.error(`PostgreSQL at TEST_DATABASE_URL cannot be reached: ${error.message}`);
    process.exit(1);
  }
  rmSync(RESULT_FILE, { force: true });
  console.log(`Tests on PostgreSQL skipped: no server at ${DEFAULT_URL} (${error.message}).`);
  console.log(
    'Add one with: apt-get install -y postgresql && service postgresql start, and a CREATEDB role portal/portal (see .ci/run).',
  );
  process.exit(0);
}

const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'in-process-pg',
    '--project',
    'process-pg',
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-errors-reporter.mjs',
    `--outputFile.json=${RESULT_FILE}`,
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: url },
  },
);
process.exit(run.status ?? 1);
