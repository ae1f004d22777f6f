/**
 * `npm run bench`, `npm run backup` and the figures' scripts run on plain Node, which strips the types of
 * the test helpers they import but resolves no extension-less import: every module they load must load
 * there, or the bench breaks without any test noticing.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the scripts’ modules on plain Node', () => {
  it.each([
    'tests/support/portal.ts',
    'tests/support/smtp-server.ts',
    'tests/support/images.ts',
    'tests/support/oidc-server.ts',
    'tests/support/chromium.ts',
    'scripts/page-weights.mjs',
    'scripts/lighthouse-figures.mjs',
    'scripts/first-search.mjs',
    'scripts/small-portal.mjs',
  ])('when %s is imported, then it loads', (file) => {
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `await import(${JSON.stringify(path.join(ROOT, file))})`],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
