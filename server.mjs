// The portal's HTTP server: precompressed static assets, compressed HTML/JSON, Astro for the rest.
import http from 'node:http';
import compression from 'compression';
import sirv from 'sirv';

// React (and others) choose their production build by NODE_ENV, which a self-hoster rarely sets;
// React's development build renders pages several times slower. Set before the app is loaded.
process.env.NODE_ENV ??= 'production';
const { handler: astro } = await import('./dist/server/entry.mjs');

const port = Number(process.env.PORT || 4321);
const host = process.env.HOST || 'localhost';
const publicUrl = process.env.PUBLIC_URL || `http://localhost:${port}`;

const YEAR_SECONDS = 31_536_000;

const staticFiles = sirv('dist/client', {
  brotli: true,
  gzip: true,
  etag: true,
  setHeaders(res, pathname) {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Hashed build output never changes under its name; the rest (favicon, icons) may.
    res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? `public, max-age=${YEAR_SECONDS}, immutable` : 'public, max-age=3600');
  },
});

const compress = compression();

function notFound(_req, res) {
  res.statusCode = 404;
  res.end();
}

const server = http.createServer((req, res) => {
  staticFiles(req, res, () => compress(req, res, () => astro(req, res, () => notFound(req, res))));
});

/** Runs start-up work (migrations, first admin) now rather than on the first visitor's request. */
async function warmUp() {
  const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const response = await fetch(`http://${target}:${port}/api/health`);
  if (!response.ok) throw new Error(`start-up check answered ${response.status}: ${await response.text()}`);
}

server.listen(port, host, () => {
  warmUp().then(
    () => console.log(`Portal listening on ${publicUrl}`),
    (error) => {
      console.error('The portal could not start:', error);
      process.exit(1);
    },
  );
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}
