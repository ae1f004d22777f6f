/**
 * The in-process tier: a real portal (src/server/portal.ts) built in the test's own process on a fresh
 * SQLite file (or a throwaway PostgreSQL database), served over real HTTP on a free port by the real
 * middleware and the real endpoint modules, routed the way Astro routes src/pages. No build is needed:
 * a change to a service is seen by the next test run. What needs the built server (pages' HTML, the
 * compression, the process itself) is the spawned tier's (tests/process).
 *
 * Astro's own pieces do the work: `createRequestFromNodeRequest` and `writeResponse` (astro/app/node) convert between
 * Node's HTTP and the Fetch API as @astrojs/node does, `createContext` (astro/middleware) makes each
 * request's context, `renderEndpoint` answers an endpoint as Astro's pipeline does, and the Container
 * API renders a page (vitest.config.ts compiles .astro files with Astro's Vite configuration). What
 * only the build makes, the pages' Content-Security-Policy with its script hashes, the hoisted scripts,
 * the compression and the first visit's inline CSS, is the spawned tier's to test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import reactRenderer from '@astrojs/react/server.js';
import type { APIContext, APIRoute, AstroCookies } from 'astro';
import { createRequestFromNodeRequest, writeResponse } from 'astro/app/node';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { createContext } from 'astro/middleware';
import { renderEndpoint } from 'astro/runtime/server/endpoint.js';
import { onRequest } from '~/middleware';
import type { Clock } from '~/server/clock';
import { loadConfig } from '~/server/config';
import { discardRefusedBody } from '~/server/http/refused-body';
import { observeRequest } from '~/server/http/request-log';
import { createPortal, type Portal } from '~/server/portal';
import { testPortalEnv, type HeldPort } from './portal';
import { createTestDatabase, dropTestDatabase } from './test-database';
import { stallLimit } from './test-pace';

type EndpointModule = Record<string, APIRoute>;
type PageModule = { default: Parameters<AstroContainer['renderToResponse']>[0] };

// Globs leave dot-folders out; Astro routes .well-known as any other.
const ENDPOINTS = import.meta.glob<EndpointModule>([
  '/src/pages/**/*.ts',
  '/src/pages/.well-known/**/*.ts',
]);
const PAGES = import.meta.glob<PageModule>('/src/pages/**/*.astro');
/** Astro renders this page for a page's empty 500 (src/middleware.ts "pageFailures"). */
const ERROR_PAGE = '/src/pages/500.astro';

type Segment =
  | { kind: 'static'; text: string }
  | { kind: 'param'; name: string }
  | { kind: 'rest'; name: string };

type Route = {
  /** As Astro names it in `context.routePattern`: `/api/auth/users/[id]`. */
  pattern: string;
  segments: Segment[];
} & (
  | { kind: 'endpoint'; load: () => Promise<EndpointModule> }
  | { kind: 'page'; load: () => Promise<PageModule> }
);

function routeOf(file: string, handler: Pick<Route, 'kind' | 'load'>): Route {
  const pattern =
    `/${file
      .replace(/^\/src\/pages\//, '')
      .replace(/\.(ts|astro)$/, '')
      .replace(/(^|\/)index$/, '')}`.replace(/\/$/, '') || '/';
  const segments = pattern
    .split('/')
    .filter(Boolean)
    .map((part): Segment => {
      const rest = /^\[\.\.\.(\w+)\]$/.exec(part);
      if (rest) return { kind: 'rest', name: rest[1]! };
      const param = /^\[(\w+)\]$/.exec(part);
      if (param) return { kind: 'param', name: param[1]! };
      return { kind: 'static', text: part };
    });
  return { pattern, segments, ...handler } as Route;
}

/**
 * Astro's priority: a static segment before a parameter before a rest, segment by segment; where one
 * route ends, it comes before a rest that would match nothing and after any other longer route.
 */
const RANK = { static: 0, param: 1, rest: 2 } as const;
function compareRoutes(a: Route, b: Route): number {
  for (let index = 0; index < Math.min(a.segments.length, b.segments.length); index += 1) {
    const difference = RANK[a.segments[index]!.kind] - RANK[b.segments[index]!.kind];
    if (difference !== 0) return difference;
  }
  const [shorter, longer, sign] = a.segments.length <= b.segments.length ? [a, b, 1] : [b, a, -1];
  if (shorter.segments.length === longer.segments.length) return 0;
  return longer.segments[shorter.segments.length]!.kind === 'rest' ? -sign : sign;
}

const ROUTES: Route[] = [
  ...Object.entries(ENDPOINTS).map(([file, load]) => routeOf(file, { kind: 'endpoint', load })),
  ...Object.entries(PAGES).map(([file, load]) => routeOf(file, { kind: 'page', load })),
].sort(compareRoutes);

/** One container renders the pages of every portal of this test worker. */
let pageContainer: Promise<AstroContainer> | undefined;
function container(): Promise<AstroContainer> {
  pageContainer ??= AstroContainer.create().then((created) => {
    created.addServerRenderer({ renderer: reactRenderer });
    return created;
  });
  return pageContainer;
}

/** A page rendered as Astro renders it, with the cookies it set. */
async function renderPage(page: PageModule, context: APIContext): Promise<Response> {
  const response = await (
    await container()
  ).renderToResponse(page.default, {
    request: context.request,
    params: context.params,
    locals: context.locals,
    partial: false,
  });
  const cookies = Reflect.get(response, Symbol.for('astro.cookies')) as AstroCookies | undefined;
  for (const cookie of cookies?.headers() ?? []) response.headers.append('Set-Cookie', cookie);
  return response;
}

function match(
  pathname: string,
): { route: Route; params: Record<string, string | undefined> } | null {
  const parts = pathname
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part));
  for (const route of ROUTES) {
    const params: Record<string, string | undefined> = {};
    let matched = true;
    for (let index = 0; index < route.segments.length; index += 1) {
      const segment = route.segments[index]!;
      if (segment.kind === 'rest') {
        params[segment.name] = parts.slice(index).join('/') || undefined;
        break;
      }
      const part = parts[index];
      if (part === undefined || (segment.kind === 'static' && segment.text !== part)) {
        matched = false;
        break;
      }
      if (segment.kind === 'param') params[segment.name] = part;
    }
    const last = route.segments.at(-1);
    if (matched && (last?.kind === 'rest' || parts.length === route.segments.length))
      return { route, params };
  }
  return null;
}

/** Answers one request as the built server's Astro would, minus rendering pages. */
async function answer(incoming: http.IncomingMessage, locals: App.Locals): Promise<Response> {
  const request = createRequestFromNodeRequest(incoming);
  const url = new URL(request.url);
  const found = match(url.pathname);
  const context = createContext({
    request,
    params: found?.params ?? {},
    locals,
    clientAddress: incoming.socket.remoteAddress ?? '127.0.0.1',
    // The portal chooses the locale itself (src/server/locale.ts); Astro's i18n is not configured.
    defaultLocale: 'en',
  });
  Object.assign(context, { routePattern: found?.route.pattern ?? '' });
  const render = async (): Promise<Response> => {
    if (!found) return new Response(null, { status: 404 });
    if (found.route.kind === 'endpoint')
      return renderEndpoint(await found.route.load(), context, false, console as never);
    return renderPage(await found.route.load(), context);
  };
  let response: Response;
  try {
    response = (await onRequest(context, render)) as Response;
  } catch (error) {
    console.error(`${request.method} ${url.pathname} failed:`, error);
    response = new Response(null, { status: 500 });
  }
  if (found?.route.kind === 'page' && response.status === 500 && response.body === null) {
    response = await renderPage(await PAGES[ERROR_PAGE]!(), context);
  }
  for (const cookie of context.cookies.headers()) response.headers.append('Set-Cookie', cookie);
  return response;
}

/** The portal's clock for tests: real time, plus whatever the test moved it on by. */
export class TestClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  /** Moves the portal's time on, as if that much time had passed. */
  advance(ms: number): void {
    this.offset += ms;
  }
}

export interface InProcessPortal {
  /** Where the portal answers: http://127.0.0.1:<port>. */
  url: string;
  dir: string;
  databaseUrl: string;
  /** The portal itself: its services, caches and database, to act and look behind the API. */
  portal: Portal;
  clock: TestClock;
  /**
   * Every line logged while the portal ran: its own log (JSON lines), and what anything printed to the
   * console meanwhile (by it, or by another portal of this test running beside it).
   */
  output(): string;
  /** With `deferStart`: starts the portal (as server.mjs does once it listens). */
  start(): Promise<void>;
  /** Stops the portal and deletes its folder and database, unless `keepDir` (to start another portal on them). */
  stop(options?: { keepDir?: boolean }): Promise<void>;
}

export interface InProcessOptions {
  /** Background work (scheduled syncs, the outbox's polling): on, as in production, unless a test drives it. */
  background?: boolean;
  /** Start on this folder and its database (a restart, or a second portal beside the first). */
  dir?: string;
  /** A new database without the migrations (the tests of the migrations); otherwise a migrated one, as after a first start. */
  emptyDatabase?: boolean;
  /** Serve on this held port instead of a free one (an address registered before the start: a redirect URI). */
  heldPort?: HeldPort;
  /** Serve before the portal has started; the test calls start() itself. */
  deferStart?: boolean;
  /** A webhook delivery's time limit, shorter than its 10 s for a test that waits for it. */
  webhookTimeoutMs?: number;
  /** How often the outbox renews the claim of an entry it is trying, more often than its 30 s for a test that waits for it. */
  outboxClaimRenewalMs?: number;
  /** How long a view waits for a receipt's list of attachments: a stall's limit unless the test is of the wait. */
  attachmentListWaitMs?: number;
  /** How often the import folder is looked at (PROVIDER=file), more often than its 10 s for a test that waits for it. */
  importScanMs?: number;
  /** How many search texts the list's index reads at a time, fewer than its 5,000 for a test of several reads. */
  searchTextsPerRead?: number;
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error'] as const;
/** The output of every portal running in this worker; the console prints into them while any runs. */
const liveOutputs = new Set<string[]>();
let restoreConsole: (() => void) | undefined;

/** What portals print goes to their output(), not to the test's console. */
function captureConsole(lines: string[]): () => void {
  if (liveOutputs.size === 0) {
    const originals = CONSOLE_METHODS.map((method) => console[method]);
    for (const method of CONSOLE_METHODS) {
      console[method] = (...parts: unknown[]) => {
        const line = parts
          .map((part) => (part instanceof Error ? (part.stack ?? part.message) : String(part)))
          .join(' ');
        for (const output of liveOutputs) output.push(line);
      };
    }
    restoreConsole = () =>
      CONSOLE_METHODS.forEach((method, index) => (console[method] = originals[index]!));
  }
  liveOutputs.add(lines);
  return () => {
    liveOutputs.delete(lines);
    if (liveOutputs.size === 0) restoreConsole?.();
  };
}

/**
 * A portal on a fresh database, served over HTTP from this process. `env` is the portal's environment
 * as a person would set it (README's variables); passwords are hashed at bcrypt's lowest cost here.
 */
export async function startInProcessPortal(
  env: Record<string, string> = {},
  options: InProcessOptions = {},
): Promise<InProcessPortal> {
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'portal-in-process-')));
  const databaseUrl = await createTestDatabase(dir, { empty: options.emptyDatabase });
  const lines: string[] = [];
  let portal: Portal | undefined;
  const server = options.heldPort?.server ?? http.createServer();
  server.on('request', (incoming: http.IncomingMessage, outgoing: http.ServerResponse) => {
    const locals = { portal } as App.Locals;
    // As server.mjs does: the request's id, its log line and its metrics.
    observeRequest(portal!, incoming, outgoing, locals, () => {
      discardRefusedBody(incoming, outgoing, {
        idleMs: stallLimit(5_000),
        totalMs: stallLimit(30_000),
      });
      answer(incoming, locals).then(
        (response) => writeResponse(response, outgoing),
        (error) => {
          lines.push(String(error));
          outgoing.statusCode = 500;
          outgoing.end();
        },
      );
    });
  });
  if (!options.heldPort)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({ ...testPortalEnv({ dir, databaseUrl, port }), ...env }, dir);
  const clock = new TestClock();
  const releaseConsole = captureConsole(lines);
  // The portal's log lines, each as its JSON line.
  const logDestination = { write: (line: string) => void lines.push(line.trimEnd()) };
  portal = createPortal(config, {
    clock,
    background: options.background ?? true,
    logDestination,
    webhookTimeoutMs: options.webhookTimeoutMs,
    outboxClaimRenewalMs: options.outboxClaimRenewalMs,
    // A view waits 10 s for the provider's list in production; a busy test machine's own sandbox can take
    // longer than that, which is slow, not down. A test of the wait sets its own.
    attachmentListWaitMs: options.attachmentListWaitMs ?? stallLimit(60_000),
    importScanMs: options.importScanMs,
    searchTextsPerRead: options.searchTextsPerRead,
  });
  const created = portal;
  const start = async () => {
    try {
      await created.start();
    } catch (error) {
      await created.stop().catch(() => {});
      server.close();
      releaseConsole();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
      throw new Error(
        `The portal did not start: ${error instanceof Error ? error.message : String(error)}\n${lines.join('\n')}`,
      );
    }
  };
  if (!options.deferStart) await start();
  const started = portal;
  return {
    url,
    dir,
    databaseUrl,
    portal: started,
    clock,
    output: () => lines.join('\n'),
    start,
    async stop({ keepDir = false } = {}) {
      const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      try {
        await started.stop(requestsDone);
      } finally {
        // The worker's next files run in this process: the console is theirs again whatever happened.
        releaseConsole();
      }
      if (keepDir) return;
      await dropTestDatabase(dir, databaseUrl);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Ends once the sync the portal started with has ended. The list answers as soon as that sync's last
 * page is committed, a moment before the sync ends, and a sync asked for meanwhile joins it and misses
 * the test's changes: a test that syncs by hand after the start waits for this first.
 */
export async function startSyncEnded(portal: InProcessPortal): Promise<void> {
  await portal.portal.syncRuns.syncReceipts();
}
