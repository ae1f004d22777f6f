// `npm test`: measures the machine's pace once (tests/support/test-pace.ts), builds, runs the unit and
// in-process tiers, then the tiers on the build, and adds up every tier's results in one closing line.
// The plan (workers per tier, the time limits' scale) goes to every tier in TEST_PACE, so that all of
// them size themselves to the same measure.
//
// The tiers on the build run in two lanes while the machine is quiet: the browser tier, and beside it the
// process tier then the PostgreSQL tier. Each mostly waits (on a browser, a spawned server, PostgreSQL);
// side by side they keep both cores busy. On a busy machine they run one after another. The browser tier
// prints as it goes; the other lane's output is kept and printed whole after it (and kept in
// .tmp/results/process-pg.log). Fails if any tier does.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { testPace } from '../tests/support/test-pace.ts';

const LOG = '.tmp/results/process-pg.log';
const started = performance.now();
const pace = testPace();
const env = { ...process.env, TEST_PACE: JSON.stringify(pace) };
console.log(
  `Test pace: ${pace.cores} cores, slowness ${pace.slowness} (time limits × ${pace.slowness}), ` +
    `${Math.round(pace.othersShare * 100)} % of the cores taken by other programs; ` +
    `workers: in-process ${pace.workers.inProcess}, spawned ${pace.workers.spawned}, browser ${pace.workers.browser}; ` +
    `browser tier ${pace.lanesSideBySide ? 'beside' : 'after'} the process and PostgreSQL tiers.\n`,
);

/** Runs `npm run <script>`; its output goes to the terminal, or into `capture` when given. */
function run(script, { capture, extraEnv } = {}) {
  return new Promise((resolve) => {
    const scriptStarted = performance.now();
    const child = spawn('npm', ['run', script], {
      // Kept output is printed to the same terminal later: colours as if it went there now.
      env: { ...env, ...extraEnv, ...(capture && process.stdout.isTTY && { FORCE_COLOR: '1' }) },
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (capture) {
      child.stdout.on('data', (chunk) => capture.push(chunk));
      child.stderr.on('data', (chunk) => capture.push(chunk));
    }
    child.on('error', (error) => resolve({ script, ok: false, seconds: 0, error }));
    child.on('close', (code) =>
      resolve({ script, ok: code === 0, seconds: (performance.now() - scriptStarted) / 1000 }),
    );
  });
}

async function inOrder(scripts, options) {
  const done = [];
  // Each runs even when one before it failed, as CI should report every tier.
  for (const script of scripts) done.push(await run(script, options));
  return done;
}

const build = await run('build');
if (!build.ok) process.exit(1);
// Built once, before any tier on the build starts, rather than by each tier's own check
// (scripts/require-build.mjs) while another tier's servers run from dist/.
const onBuild = { BUILD_CHECKED: '1' };
const results = await inOrder(['test:unit', 'test:in-process']);

mkdirSync('.tmp/results', { recursive: true });
if (pace.lanesSideBySide) {
  console.log(
    `The process and PostgreSQL tiers run beside the browser tier; their output follows it (and is kept in ${LOG}).\n`,
  );
  const kept = [];
  const [browser, beside] = await Promise.all([
    run('test:e2e', { extraEnv: onBuild }),
    inOrder(['test:process', 'test:pg'], { capture: kept, extraEnv: onBuild }),
  ]);
  const output = Buffer.concat(kept);
  writeFileSync(LOG, output);
  process.stdout.write(output);
  results.push(browser, ...beside);
} else {
  results.push(...(await inOrder(['test:process', 'test:pg', 'test:e2e'], { extraEnv: onBuild })));
}

console.log('');
for (const { script, ok, seconds, error } of [build, ...results])
  console.log(
    `── ${script}: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s${error ? ` (${error.message})` : ''}`,
  );
console.log(`── npm test: ${((performance.now() - started) / 1000).toFixed(0)} s in all\n`);
const summary = await run('test:summary');
process.exit(summary.ok && results.every((result) => result.ok) ? 0 : 1);
