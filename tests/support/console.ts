/** Runs `npm run <script> -- <args>` as an operator types it, with a test portal's configuration. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { testPortalEnv, type Portal } from './portal.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runScript(
  portal: Pick<Portal, 'dir' | 'databaseUrl' | 'url'>,
  script: string,
  ...args: string[]
): Promise<ScriptRun> {
  const env = {
    ...process.env,
    ...testPortalEnv({
      dir: portal.dir,
      databaseUrl: portal.databaseUrl,
      port: Number(new URL(portal.url).port),
    }),
  };
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // Node's own note for --env-file-if-exists (package.json) when there is no .env, as on this machine.
  const withoutEnvNote = (text: string) =>
    text.replace(/^\.env not found\. Continuing without it\.\n/m, '');
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr: withoutEnvNote(stderr) })),
  );
}
