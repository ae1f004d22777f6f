// `npm test`: measures the machine's pace once (tests/support/test-pace.ts), builds, then runs every tier
// one after another, and adds up every tier's results in one closing line. The plan (workers per tier,
// the time limits' scale) goes to every tier in TEST_PACE, so that all of them size themselves to the
// same measure.
//
// The tiers run one after another: each keeps both cores busy on its own. Side by side (the browser
// tier beside the process and PostgreSQL tiers) they fought for the cores: on a quiet 2-core machine
// the process and PostgreSQL tiers took 680–850 s beside the browser tier, 170–270 s after it
// (docs/architecture.md). Fails if any tier does.
import { spawn } from 'node:child_process';
import { testPace } from '../tests/support/test-pace.ts';

const started = performance.now();
const pace = testPace();
const env = { ...process.env, TEST_PACE: JSON.stringify(pace) };
console.log(
  `Test pace: ${pace.cores} cores, slowness ${pace.slowness} (time limits × ${pace.slowness}), ` +
    `${Math.round(pace.othersShare * 100)} % of the cores taken by other programs; ` +
    `workers: in-process ${pace.workers.inProcess}, spawned ${pace.workers.spawned}, browser ${pace.workers.browser}.\n`,
);

/** Runs `npm run <script> -- <args>`, its output to the terminal. */
function run(script, extraEnv = {}, args = []) {
  return new Promise((resolve) => {
    const scriptStarted = performance.now();
    const child = spawn('npm', ['run', script, ...(args.length ? ['--', ...args] : [])], {
      env: { ...env, ...extraEnv },
      stdio: 'inherit',
    });
    child.on('error', (error) => resolve({ script, ok: false, seconds: 0, error }));
    child.on('close', (code) =>
      resolve({ script, ok: code === 0, seconds: (performance.now() - scriptStarted) / 1000 }),
    );
  });
}

const build = await run('build');
if (!build.ok) process.exit(1);
// Built once, before any tier on the build starts, rather than by each tier's own check
// (scripts/require-build.mjs).
const onBuild = { BUILD_CHECKED: '1' };
const results = [];
// Each runs even when one before it failed, as CI should report every tier. The unit and in-process
// tiers run as `npm run test:fast` does, in one Vitest run: the unit files fill the cores while
// in-process tests wait on their portals, and the start-up is paid once (114 s one after the other, 103 s together).
results.push(
  await run('test:fast', {}, [
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-errors-reporter.mjs',
    '--outputFile.json=.tmp/results/unit-and-in-process.json',
  ]),
);
for (const script of ['test:process', 'test:pg', 'test:e2e'])
  results.push(await run(script, onBuild));

console.log('');
for (const { script, ok, seconds, error } of [build, ...results])
  console.log(
    `── ${script}: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s${error ? ` (${error.message})` : ''}`,
  );
console.log(`── npm test: ${((performance.now() - started) / 1000).toFixed(0)} s in all\n`);
const summary = await run('test:summary');
process.exit(summary.ok && results.every((result) => result.ok) ? 0 : 1);
