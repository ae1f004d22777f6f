/**
 * Every npm script that starts the portal or its tools runs scripts/require-node.cjs first: on a
 * Node.js too old for the portal it says so in one line, instead of failing on a command-line flag or
 * a syntax error. Tried on this Node.js, and on the system's when that one is older (Debian 12's is 20).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/require-node.cjs');
const SYSTEM_NODE = '/usr/bin/node';
const systemVersion = existsSync(SYSTEM_NODE)
  ? spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()
  : null;
const [major = 0, minor = 0] = (systemVersion ?? 'v0.0').slice(1).split('.').map(Number);
const systemTooOld = systemVersion !== null && !((major === 22 && minor >= 18) || major >= 24);

describe('the Node.js requirement', () => {
  it('when the Node.js is new enough, then the check passes in silence', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).toBe('');
  });

  it.skipIf(!systemTooOld)(
    "when the system's Node.js is older, then it refuses in one line naming both versions",
    () => {
      const run = spawnSync(SYSTEM_NODE, [SCRIPT], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `The portal needs Node.js 22.18 or a later 22, or Node.js 24 or later; this is Node.js ${systemVersion}.\n`,
      );
    },
  );
});
