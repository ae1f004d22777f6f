// `npm run bench`: the budgets of design.md, measured on a portal started from the build on a temporary
// database with a 100,000-receipt sandbox. Page weights are what Chromium received (compressed bytes on
// the wire, first visit, empty cache); latencies come from 10 concurrent keep-alive clients.
import { chromium } from '@playwright/test';
import { startPortal, ADMIN_PASSWORD } from '../tests/support/portal.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/support/chromium.ts';

const RECEIPTS = Number(process.env.BENCH_RECEIPTS || 100_000);
const CONCURRENCY = 10;
const REQUESTS = 2_000;
const KB = 1024;
const DEMO_PASSWORD = 'bench-demo-password';

console.log(`Starting a portal with a ${RECEIPTS.toLocaleString('en-US')}-receipt sandbox…`);
const portal = await startPortal({
  LOGIN_MAX_ATTEMPTS: '1000',
  SANDBOX_RECEIPTS: String(RECEIPTS),
  SYNC_INTERVAL_SECONDS: '3600',
  DEMO_USERS: 'true',
  DEMO_PASSWORD,
  // Tiles are the tile server's bytes, not the portal's (and this machine is offline): an address
  // where nothing listens, so tile requests fail at once and count for nothing.
  MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
});
try {
  const syncLine = await waitForOutput(/Receipt mirror: full sync of (\d+) receipts in ([\d.]+) s/, 300_000);
  console.log(`\nFull sync: ${Number(syncLine[1]).toLocaleString('en-US')} receipts in ${syncLine[2]} s (budget 60 s)`);

  const admin = await signIn('admin', ADMIN_PASSWORD);
  const customer = await signIn('demo', DEMO_PASSWORD);

  console.log('\nPage weight, first visit as a customer (compressed bytes on the wire):');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  for (const [path, cookie, budget] of [['/login', null, 90], ['/dashboard', customer, 30], ['/receipts', customer, 110]]) {
    const weight = await pageWeight(browser, path, cookie);
    console.log(
      `  ${path.padEnd(12)} ${kb(weight.total)} of ${budget} KB in ${weight.requests} requests` +
        ` (HTML ${kb(weight.html)}, CSS ${kb(weight.css)}, JS ${kb(weight.js)}, other ${kb(weight.other)})`,
    );
  }
  const map = await mapWeight(browser, customer);
  console.log(`  opening the map  ${kb(map.total)} of 50 KB more in ${map.requests} requests (CSS ${kb(map.css)}, JS ${kb(map.js)}, other ${kb(map.other)})`);
  await browser.close();

  console.log(`\nLatency of GET /api/receipts, ${REQUESTS} requests from ${CONCURRENCY} concurrent clients (budget p95 < 50 ms):`);
  await latency('varied queries (admin)', variedQueries(), admin);
  await latency('varied queries (customer scope)', variedQueries(), customer);
  await latency('one repeated query (cached)', ['/api/receipts?sortBy=shipperName&sortOrder=asc&page=3'], admin);
  await latency('GET /api/receipts/stats (customer)', ['/api/receipts/stats'], customer);
  await latency('GET /dashboard (page, customer)', ['/dashboard'], customer);
  await latency('GET /receipts (page, customer)', ['/receipts'], customer);
} finally {
  await portal.stop();
}

/** Distinct URLs, so that the response cache answers none of them: pages, every sort both ways, searches. */
function variedQueries() {
  const sorts = ['receivedDate', 'number', 'shipperName', 'consigneeName', 'status'].flatMap((key) => [`sortBy=${key}&sortOrder=asc`, `sortBy=${key}&sortOrder=desc`]);
  const searches = ['', 'search=amazon', 'search=wr-1', 'search=trading', 'search=paramaribo', 'search=zz-nothing'];
  const urls = [];
  for (let page = 1; urls.length < REQUESTS; page += 1) {
    for (const sort of sorts) for (const search of searches) urls.push(`/api/receipts?page=${page}&${sort}${search ? `&${search}` : ''}`);
  }
  return urls.slice(0, REQUESTS);
}

async function waitForOutput(pattern, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(portal.output());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no "${pattern}" in the portal's output:\n${portal.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function call(method, path, cookie, json) {
  const headers = { Origin: portal.url };
  if (cookie) headers.Cookie = cookie;
  if (json) headers['Content-Type'] = 'application/json';
  const response = await fetch(portal.url + path, { method, headers, body: json && JSON.stringify(json) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

async function signIn(username, password) {
  const response = await call('POST', '/api/auth/login', null, { username, password });
  return response.headers.getSetCookie()[0].split(';')[0];
}

async function newPage(browser, cookie) {
  const context = await browser.newContext();
  if (cookie) {
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: portal.url }]);
  }
  return { context, page: await context.newPage() };
}

function recordWeight(page) {
  const weight = { total: 0, html: 0, css: 0, js: 0, other: 0, requests: 0 };
  const pending = [];
  const listener = (request) => {
    pending.push(
      request.sizes().then((sizes) => {
        const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
        const type = request.resourceType();
        const kind = type === 'document' ? 'html' : type === 'stylesheet' ? 'css' : type === 'script' ? 'js' : 'other';
        weight[kind] += bytes;
        weight.total += bytes;
        weight.requests += 1;
      }),
    );
  };
  page.on('requestfinished', listener);
  return async () => {
    page.off('requestfinished', listener);
    await Promise.all(pending);
    return weight;
  };
}

async function pageWeight(browser, path, cookie) {
  const { context, page } = await newPage(browser, cookie);
  const done = recordWeight(page);
  await page.goto(portal.url + path, { waitUntil: 'networkidle' });
  const weight = await done();
  await context.close();
  return weight;
}

/** What opening the tracking map adds to a loaded /receipts page: Leaflet JS + CSS, icons, the modal. */
async function mapWeight(browser, cookie) {
  const { context, page } = await newPage(browser, cookie);
  await page.goto(`${portal.url}/receipts`, { waitUntil: "networkidle" });
  const done = recordWeight(page);
  await page.getByRole('row').nth(1).getByRole('button').first().click();
  await page.getByRole('dialog', { name: 'Tracking Details' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const weight = await done();
  await context.close();
  return weight;
}

async function latency(label, paths, cookie) {
  const headers = { 'Accept-Encoding': 'gzip, br' };
  if (cookie) headers.Cookie = cookie;
  const timings = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const path = paths[next % paths.length];
        next += 1;
        const begin = performance.now();
        const response = await fetch(portal.url + path, { headers, redirect: 'manual' });
        await response.arrayBuffer();
        if (response.status >= 400) throw new Error(`${path} answered ${response.status}`);
        timings.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  timings.sort((a, b) => a - b);
  const pct = (p) => timings[Math.min(timings.length - 1, Math.floor((p / 100) * timings.length))].toFixed(1);
  console.log(`  ${label.padEnd(36)} p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, ${(timings.length / seconds).toFixed(0)} req/s`);
}

function kb(bytes) {
  return `${(bytes / KB).toFixed(1)} KB`;
}
