/**
 * The test tiers (docs/architecture.md "Tests"): unit (pure logic), in-process (a real portal in the
 * test process: services, the HTTP API and the pages, no build), process (the built server as its own
 * process: start-up, shutdown, several processes, what only the build makes, the command-line tools).
 * Each tier on SQLite; the tests of the database layer again on PostgreSQL (the -pg projects, which set
 * TEST_DATABASE=postgres). Astro's Vite configuration compiles the .astro pages the in-process tier renders.
 */
import { fileURLToPath } from 'node:url';
import { getViteConfig } from 'astro/config';
import { stallLimit, testPace } from './tests/support/test-pace';

const src = fileURLToPath(new URL('./src', import.meta.url));

/** Tests that touch what differs between the databases: queries, migrations, search and sort, locking, leases, several processes. */
const DATABASE_TESTS = ['tests/in-process/database/**/*.test.ts'];
const DATABASE_PROCESS_TESTS = ['tests/process/database/**/*.test.ts'];

// Workers and time limits follow the machine's pace (tests/support/test-pace.ts), measured once by
// `npm test` or when this file loads; every test process reads the same plan from TEST_PACE.
const pace = testPace();
const env = { TEST_PACE: JSON.stringify(pace) };
// As the server runs (server.mjs): on Node 22 without the async context frame, the request's language
// is carried by promise hooks on every await of the in-process portals: about 4 % of the tier's CPU,
// measured with and without. From Node 24 it is the default, and the flag is gone.
const execArgv = process.versions.node.startsWith('22.')
  ? ['--experimental-async-context-frame']
  : [];
// In-process tests mostly wait on their portals' I/O: more workers than cores keep the cores busy. A
// worker's files share one module graph (isolation off): each portal is built by the test from its own
// configuration, and the server's modules hold no state of their own (tests/unit/architecture.test.ts);
// the message runtime's locale is per request. Only the importing is shared, which took a third of the
// tier's time when each file did it again.
// The limits say "stalled": several times the slowest green test seen with a busy loop on every core.
// Each test's portal starts on a copy of a database migrated once per run.
const databaseTemplate = ['tests/support/database-template.ts'];
const inProcess = {
  environment: 'node' as const,
  testTimeout: stallLimit(90_000, pace),
  hookTimeout: stallLimit(180_000, pace),
  maxWorkers: pace.workers.inProcess,
  isolate: false,
  globalSetup: databaseTemplate,
};
const spawned = {
  environment: 'node' as const,
  testTimeout: stallLimit(240_000, pace),
  hookTimeout: stallLimit(300_000, pace),
  maxWorkers: pace.workers.spawned,
  globalSetup: databaseTemplate,
};

export default getViteConfig(
  {
    resolve: { alias: { '~': src } },
    test: {
      execArgv,
      projects: [
        // Run together (test:fast, test:pg), projects of different worker counts go one after another, in this order.
        // Pure logic with no state of its own: the files share one module graph (isolation off), which
        // spares each file importing and transforming the same sources again. It goes in the in-process
        // tier's group, with as many workers: its files fill the cores while in-process tests wait on their
        // portals (test:fast 108 → 103 s, medians of three).
        {
          extends: true,
          test: {
            name: 'unit',
            include: ['tests/unit/**/*.test.ts'],
            environment: 'node',
            env,
            isolate: false,
            testTimeout: stallLimit(20_000, pace),
            maxWorkers: pace.workers.inProcess,
            sequence: { groupOrder: 1 },
          },
        },
        {
          extends: true,
          test: {
            name: 'in-process',
            include: ['tests/in-process/**/*.test.ts'],
            env: { ...env, TEST_DATABASE: 'sqlite' },
            ...inProcess,
            sequence: { groupOrder: 1 },
          },
        },
        {
          extends: true,
          test: {
            name: 'in-process-pg',
            include: DATABASE_TESTS,
            env: { ...env, TEST_DATABASE: 'postgres' },
            ...inProcess,
            sequence: { groupOrder: 2 },
          },
        },
        {
          extends: true,
          test: {
            name: 'process',
            include: ['tests/process/**/*.test.ts'],
            env: { ...env, TEST_DATABASE: 'sqlite' },
            ...spawned,
            sequence: { groupOrder: 3 },
          },
        },
        {
          extends: true,
          test: {
            name: 'process-pg',
            include: DATABASE_PROCESS_TESTS,
            env: { ...env, TEST_DATABASE: 'postgres' },
            ...spawned,
            sequence: { groupOrder: 4 },
          },
        },
      ],
    },
  } as Parameters<typeof getViteConfig>[0],
  // Pages render as the build renders them, without the dev toolbar's source annotations.
  { devToolbar: { enabled: false } },
);
