// Before the tiers that run the built server (tests/process, the browser tests): builds when dist/ is
// older than anything it is built from, so that no test runs against a build of older code.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const BUILT = 'dist/server/entry.mjs';
const SOURCES = [
  'src',
  path.join('db', 'migrations'),
  'messages',
  'public',
  'project.inlang',
  'astro.config.mjs',
  'server.mjs',
  'package.json',
];
/** Written by the build itself: no reason to build again. */
const GENERATED = [path.join('src', 'paraglide')];

/**
 * The newest file's time. A folder's own time is not counted: the test tiers before the built ones
 * recreate src/paraglide (which touches src), and that alone built the portal twice more per run.
 */
function newestChange(entry) {
  if (GENERATED.includes(entry) || !existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

// Built already by `npm test` (scripts/test-all.mjs) before its first tier on the build.
if (process.env.BUILD_CHECKED) process.exit(0);

const builtAt = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
const stale = SOURCES.find((entry) => newestChange(entry) > builtAt);
if (stale) {
  console.log(
    builtAt ? `dist/ is older than ${stale}: building first.` : 'No build yet: building first.',
  );
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
