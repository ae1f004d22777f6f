/**
 * Starts the built portal (`node server.mjs`) as its own process on a fresh SQLite file and a free
 * port, the way a user runs it. Used by the API tests and the benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ADMIN_PASSWORD = 'admin-password-1';

export interface Portal {
  url: string;
  dir: string;
  /** The server process, to read its memory from /proc. */
  pid: number;
  /** Everything the process printed so far. */
  output(): string;
  /** Stops the process and deletes its folder, unless `keepDir` (to start another portal on it). */
  stop(options?: { keepDir?: boolean }): Promise<void>;
}

export interface StartOptions {
  /** Reuse this folder (database, app-secret, uploads) instead of a fresh one: a restart. */
  dir?: string;
  /** Listen here instead of on a free port (a redirect URI registered before the start). */
  port?: number;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPortal(env: Record<string, string> = {}, options: StartOptions = {}): Promise<Portal> {
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'portal-test-')));
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['server.mjs'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: `sqlite:${path.join(dir, 'portal.sqlite')}`,
      UPLOADS_DIR: path.join(dir, 'uploads'),
      ADMIN_PASSWORD,
      DEMO_USERS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`portal did not start in time:\n${output}`)), 30_000);
    const check = () => {
      if (output.includes('Portal listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`portal exited with ${code}:\n${output}`));
    });
  });
  try {
    await started;
  } catch (error) {
    child.kill('SIGTERM');
    if (!options.dir) await rm(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    dir,
    pid: child.pid!,
    output: () => output,
    async stop({ keepDir = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
