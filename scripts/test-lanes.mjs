// `npm test`'s tiers on the build, in two lanes: the browser tier, and beside it the process tier then
// the PostgreSQL tier. Each mostly waits (on a browser, a spawned server, PostgreSQL); side by side they
// keep both cores busy. The browser tier prints as it goes; the other lane's output is kept and printed
// whole after it (and kept in .tmp/results/process-pg.log). Fails if any tier does.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

const LOG = '.tmp/results/process-pg.log';

/** Runs `npm run <script>`; its output goes to the terminal, or into `capture` when given. */
function run(script, capture) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('npm', ['run', script], {
      // Kept output is printed to the same terminal later: colours as if it went there now.
      env: { ...process.env, BUILD_CHECKED: '1', ...(capture && process.stdout.isTTY && { FORCE_COLOR: '1' }) },
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (capture) {
      child.stdout.on('data', (chunk) => capture.push(chunk));
      child.stderr.on('data', (chunk) => capture.push(chunk));
    }
    child.on('error', (error) => resolve({ script, ok: false, seconds: 0, error }));
    child.on('close', (code) => resolve({ script, ok: code === 0, seconds: (performance.now() - started) / 1000 }));
  });
}

// Built once, before the lanes start, rather than by each tier's own check (require-build.mjs) while
// the other lane's servers run from dist/.
const build = spawnSync('node', ['scripts/require-build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

mkdirSync('.tmp/results', { recursive: true });
console.log(`The process and PostgreSQL tiers run beside the browser tier; their output follows it (and is kept in ${LOG}).\n`);
const kept = [];
const [browser, beside] = await Promise.all([
  run('test:e2e'),
  (async () => {
    // Both run even when the first fails, as CI should report every tier.
    const done = [await run('test:process', kept)];
    done.push(await run('test:pg', kept));
    return done;
  })(),
]);
const output = Buffer.concat(kept);
writeFileSync(LOG, output);
process.stdout.write(output);

const results = [browser, ...beside];
console.log('');
for (const { script, ok, seconds, error } of results)
  console.log(`── ${script}: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s${error ? ` (${error.message})` : ''}`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
