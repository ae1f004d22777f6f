// The portal's HTTP server: precompressed static assets, compressed HTML/JSON, Astro for the rest. It
// builds the one portal of this process (src/server/portal.ts) and hands it to every request as
// `locals.portal`.
import http from 'node:http';
import compression from 'compression';
import { constants as zlibConstants } from 'node:zlib';
import sirv from 'sirv';
import { fileURLToPath } from 'node:url';
import { keepCompiledCode, saveCompiledCode } from './scripts/lib/compile-cache.mjs';

// Node 22 carries the request's language (src/server/locale.ts) fast only with the async context frame,
// which is the default from Node 24 (where the flag no longer exists): on 22 the process replaces
// itself with one that has the flag, keeping its pid for systemd and signals.
const ASYNC_CONTEXT_FLAG = '--experimental-async-context-frame';
if (
  process.versions.node.startsWith('22.') &&
  !process.execArgv.includes(ASYNC_CONTEXT_FLAG) &&
  process.execve
) {
  process.execve(
    process.execPath,
    [process.execPath, ASYNC_CONTEXT_FLAG, ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}

keepCompiledCode();

// React (and others) choose their production build by NODE_ENV, which a self-hoster rarely sets;
// React's development build renders pages several times slower. Set before the app is loaded.
process.env.NODE_ENV ??= 'production';
const {
  handler: astro,
  createPortal,
  loadConfig,
  UnknownMigrationsError,
  createLogger,
  RequestScope,
  observeRequest,
  discardRefusedBody,
  // A URL rather than a literal path: `astro check` would otherwise read the whole built bundle (372
  // files, 9 s of `npm run lint` once the portal has been built).
} = await import(new URL('./dist/server/entry.mjs', import.meta.url).href);

const onTerminal = process.stdout.isTTY === true;
let config;
try {
  config = loadConfig(process.env, process.cwd(), onTerminal);
} catch (error) {
  // No configuration, so no portal and its logger: one of the defaults says why.
  const log = createLogger({
    level: 'info',
    format: onTerminal ? 'pretty' : 'json',
    requestScope: new RequestScope(),
  });
  log.fatal({ component: 'startup' }, `The portal could not start: ${error.message}`);
  process.exit(1);
}
const { port, host } = config;
// The build beside this file, wherever the portal is started from; the configuration's relative paths
// (the default database and uploads) stay the working folder's.
const clientDir = fileURLToPath(new URL('./dist/client', import.meta.url));
const portal = createPortal(config, { clientDir });
const { log } = portal;

const YEAR_SECONDS = 31_536_000;

const staticFiles = sirv(clientDir, {
  brotli: true,
  gzip: true,
  etag: true,
  setHeaders(res, pathname) {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Hashed build output never changes under its name; the rest (favicon, icons) may.
    res.setHeader(
      'Cache-Control',
      pathname.startsWith('/_astro/')
        ? `public, max-age=${YEAR_SECONDS}, immutable`
        : 'public, max-age=3600',
    );
  },
});

/**
 * Brotli quality 5 rather than the default 4: a page some 8 % smaller for about 0.04 ms more per 16 KB
 * (quality 9 and up cost milliseconds). Cached API answers use the same (src/server/http/encoded-json.ts).
 */
const BROTLI_QUALITY = 5;
const compress = compression({
  brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
});

function notFound(_req, res) {
  res.statusCode = 404;
  res.end();
}

/** A URL whose percent-encoding is broken names nothing; Astro would take it for a failure of its own. */
function isMalformedUrl(url) {
  try {
    decodeURIComponent(url);
    return false;
  } catch {
    return true;
  }
}

function malformedUrl(req, res) {
  const api = req.url.startsWith('/api/');
  res.writeHead(400, {
    'Content-Type': api ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.end(
    api
      ? JSON.stringify({ success: false, message: 'Malformed URL', errorType: 'VALIDATION_ERROR' })
      : 'Malformed URL',
  );
}

let shuttingDown = false;

const server = http.createServer((req, res) => {
  // A request that came on a kept-alive connection during shutdown is answered, and its connection closed.
  if (shuttingDown) res.setHeader('Connection', 'close');
  // Locals are the request's own: the middleware adds the session's user, the language and the route to them.
  const locals = { portal };
  // Its id, its log line (static files at debug only) and its metrics (src/server/http/request-log.ts).
  observeRequest(portal, req, res, locals, () => {
    if (isMalformedUrl(req.url)) return malformedUrl(req, res);
    discardRefusedBody(req, res);
    staticFiles(req, res, () =>
      compress(req, res, () => astro(req, res, () => notFound(req, res), locals)),
    );
  });
});

/**
 * How long an idle kept-alive connection stays open. Node's 5 s is shorter than the clients that reuse
 * one keep it: a reverse proxy's pool (nginx's upstream keepalive and load balancers hold one 60 s), or
 * a client whose busy event loop has not yet seen the close. Either then sends on a closed connection and
 * gets a reset (a proxy answers 502). 65 s outlasts the usual 60 s.
 */
server.keepAliveTimeout = 65_000;

// The portal starts once the server listens: with the built-in sandbox its first sync is a request to
// this server. Requests that come meanwhile wait for the start (src/middleware.ts).
server.listen(port, host, () => {
  portal.start().then(
    () => {
      log.info({ component: 'startup' }, `Portal listening on ${config.publicUrl.origin}`);
      saveCompiledCode();
    },
    (error) => {
      // A database of a newer version is the operator's to sort out: one line, without a stack trace.
      if (error instanceof UnknownMigrationsError)
        log.fatal({ component: 'startup' }, `The portal could not start: ${error.message}`);
      else log.fatal({ component: 'startup', err: error }, 'The portal could not start');
      process.exit(1);
    },
  );
});

/**
 * The longest a shutdown may take: a request or sync page that hangs must not keep the process alive
 * (systemd's TimeoutStopSec should be longer, see README.md).
 */
const SHUTDOWN_LIMIT_MS = 15_000;
/** How often connections that fell idle while shutting down are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops taking connections, lets the requests in flight finish (keep-alive connections close as they
 * fall idle) and the app stop its background work at a safe point, then closes the database and exits.
 */
function shutDown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info(
    { component: 'shutdown' },
    `${signal} received: finishing the requests and the sync step in progress, then shutting down.`,
  );
  setTimeout(() => {
    log.error(
      { component: 'shutdown' },
      `Shutdown did not finish within ${SHUTDOWN_LIMIT_MS / 1000} s; exiting anyway.`,
    );
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS).unref();
  const requestsDone = new Promise((resolve) => server.close(() => resolve()));
  setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
  portal.stop(requestsDone).then(
    () => {
      log.info({ component: 'shutdown' }, 'Portal shut down cleanly.');
      process.exit(0);
    },
    (error) => {
      log.error({ component: 'shutdown', err: error }, 'The portal could not shut down cleanly');
      process.exit(1);
    },
  );
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => shutDown(signal));
