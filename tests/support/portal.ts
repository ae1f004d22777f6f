/**
 * Starts the built portal (`node server.mjs`) as its own process on a fresh database and a free port,
 * the way a user runs it. Used by the spawned-process tests and the benchmark. The database is a SQLite
 * file in the portal's folder, or a throwaway PostgreSQL database (tests/support/test-database.ts).
 * A second process may join a portal's folder and database (`alongside`), as a scaled-out portal runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, dropTestDatabase, testPostgresUrl } from './test-database.ts';
import { stallLimit } from './test-pace.ts';

export const ADMIN_PASSWORD = 'admin-password-1';

/** As `npm start` runs it (package.json): the request-scoped locale costs next to nothing with this. */
export const SERVER_NODE_FLAGS = ['--experimental-async-context-frame'];

export interface Portal {
  url: string;
  dir: string;
  /** The portal's DATABASE_URL: `sqlite:…` or `postgres://…`. */
  databaseUrl: string;
  /** The server process, to read its memory from /proc. */
  pid: number;
  /** Everything the process printed so far. */
  output(): string;
  /** Settles with the exit code (null when a signal ended it) once the process has exited. */
  exited: Promise<number | null>;
  /** Stops the process and deletes its folder, unless `keepDir` (to start another portal on it). */
  stop(options?: { keepDir?: boolean }): Promise<void>;
}

export interface StartOptions {
  /** Reuse this folder (its database, app-secret, uploads) instead of a fresh one: a restart. */
  dir?: string;
  /** Listen here instead of on a free port (a redirect URI registered before the start). */
  port?: number;
  /**
   * Another process of that portal (scaling out): on its database, app-secret and uploads. Stopping
   * it leaves them to that portal.
   */
  alongside?: Portal;
  /** The working folder the server is started in; the checkout's root unless given. */
  cwd?: string;
}

/** A port free now, for a server that must listen itself (a spawned portal): it may be taken before then. */
export async function freePort(): Promise<number> {
  const { port, server } = await holdPort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A port nothing listens on: a provider that is down. Only root may listen below 1024, and every
 * ephemeral range starts above it, so neither a test's server nor an outgoing connection takes it, as
 * either may take a port freePort found free.
 */
export const CLOSED_PORT = 1;

/**
 * A port held by a listening HTTP server (without a handler) until a test's server takes it over: an
 * address to register before that server starts (a redirect URI, an issuer). Unlike freePort's number,
 * nothing can take it meanwhile, neither another test's server nor an outgoing connection's port.
 */
export interface HeldPort {
  port: number;
  server: Server;
}

export function holdPort(): Promise<HeldPort> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, server }),
    );
  });
}

export { testPostgresUrl };

const databaseOf = createTestDatabase;
const dropDatabaseOf = (dir: string) => dropTestDatabase(dir);

/**
 * A fresh portal folder with its database, for portals started on it later (`dir` of StartOptions), one
 * or several at once: migrated as after a first start, or `empty` for a test of the migrations.
 */
export async function newPortalFolder({ empty = false } = {}): Promise<{
  dir: string;
  databaseUrl: string;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-test-'));
  return { dir, databaseUrl: await databaseOf(dir, { empty }) };
}

/** Deletes a folder of newPortalFolder on which no portal was started, with its database. */
export const removePortalFolder = (dir: string) => removeFolder(dir);

export async function startPortal(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<Portal> {
  const shared = options.dir ?? options.alongside?.dir;
  const dir = shared ?? (await mkdtemp(path.join(tmpdir(), 'portal-test-')));
  const databaseUrl = await databaseOf(dir);
  // A free port may be taken before the portal listens on it (another test's portal, or any outgoing
  // connection's ephemeral port): the start is then tried again on another.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await spawnPortal(env, {
        dir,
        databaseUrl,
        port,
        keepDirByDefault: options.alongside !== undefined,
        cwd: options.cwd,
      });
    } catch (error) {
      const portTaken =
        error instanceof PortTakenError && options.port === undefined && attempt < 5;
      if (portTaken) continue;
      if (!shared) await removeFolder(dir);
      throw error;
    }
  }
}

class PortTakenError extends Error {}

/** What every test portal runs with, spawned or in-process: its own address, database and uploads, a known admin password. */
export function testPortalEnv({
  dir,
  databaseUrl,
  port,
}: {
  dir: string;
  databaseUrl: string;
  port: number;
}): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    UPLOADS_DIR: path.join(dir, 'uploads'),
    ADMIN_PASSWORD,
    DEMO_USERS: 'false',
    // bcrypt's lowest cost keeps the tests fast; the tests of the cost itself, and the benchmark, set 12.
    PASSWORD_HASH_COST: '4',
    // The sandbox answers from the portal's own process: on a busy machine it is slow, not down.
    PROVIDER_TIMEOUT_SECONDS: String(Math.min(600, Math.ceil(stallLimit(30_000) / 1000))),
  };
}

interface SpawnOptions {
  dir: string;
  databaseUrl: string;
  port: number;
  keepDirByDefault: boolean;
  cwd?: string;
}

async function spawnPortal(
  env: Record<string, string>,
  { dir, databaseUrl, port, keepDirByDefault, cwd }: SpawnOptions,
): Promise<Portal> {
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const root = path.resolve(import.meta.dirname, '../..');
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, path.join(root, 'server.mjs')],
    {
      cwd: cwd ?? root,
      env: { ...process.env, ...testPortalEnv({ dir, databaseUrl, port }), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );

  const started = new Promise<void>((resolve, reject) => {
    // "Portal listening" is logged once the portal is ready (server.mjs): its start is waited for, up
    // to a ceiling that only a stalled start reaches.
    const timer = setTimeout(
      () => reject(new Error(`portal did not start in time:\n${output}`)),
      stallLimit(180_000),
    );
    // Removed once found: the portal logs a line per request, and searching all of its output again on
    // every chunk took a third of the benchmark's client CPU, beside the portal on the same cores.
    const check = () => {
      if (output.includes('Portal listening')) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const ErrorType = output.includes('EADDRINUSE') ? PortTakenError : Error;
      reject(new ErrorType(`portal exited with ${code}:\n${output}`));
    });
  });
  try {
    await started;
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }

  return {
    url,
    dir,
    databaseUrl,
    pid: child.pid!,
    output: () => output,
    exited,
    async stop({ keepDir = keepDirByDefault } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepDir) await removeFolder(dir);
    },
  };
}

async function removeFolder(dir: string): Promise<void> {
  await dropDatabaseOf(dir);
  await rm(dir, { recursive: true, force: true });
}
