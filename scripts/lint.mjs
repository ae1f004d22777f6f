// `npm run lint`: `astro check` (the longest: 45 s alone on a quiet 2-core machine, 70 s beside the
// others) on one core while ESLint and then Prettier run on the other, each one's output printed whole
// once it ends; fails if any does. tsconfig.json leaves out the generated catalogue (src/paraglide,
// 1,400 files): what imports it is still checked against it, and checking it too doubled the time.
import { spawn } from 'node:child_process';

/** Two lanes, one per core: the checks of a lane run one after the other. */
const LANES = [
  [['astro check', ['npm', 'run', '--silent', 'check']]],
  [
    ['eslint', ['eslint', '.', '--max-warnings', '0']],
    ['prettier', ['prettier', '--check', '.']],
  ],
];

function run([name, [command, ...args]]) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, {
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: String(error), seconds: 0 }));
    child.on('close', (code) =>
      resolve({ name, ok: code === 0, output, seconds: (performance.now() - started) / 1000 }),
    );
  });
}

const lanes = await Promise.all(
  LANES.map(async (lane) => {
    const done = [];
    for (const check of lane) done.push(await run(check));
    return done;
  }),
);
const results = lanes.flat();

for (const { name, ok, output, seconds } of results) {
  console.log(`\n── ${name}: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s`);
  if (!ok || output.trim()) console.log(output.trimEnd());
}
const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) {
  console.error(`\nLint failed: ${failed.join(', ')}`);
  process.exit(1);
}
