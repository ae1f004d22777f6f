// `npm run bench`: the figures and their budgets (printed beside each), measured on a portal started from the build on a temporary
// database with a 100,000-receipt sandbox. Page weights are what Chromium received (compressed bytes on
// the wire, first visit, empty cache); latencies come from 10 concurrent keep-alive clients, and the
// search mix sends every search once, so it measures the product rather than its caches.
// BENCH_DATABASE_URL (a PostgreSQL server's URL, the role with CREATEDB) runs it on a throwaway
// PostgreSQL database there instead of a SQLite file. BENCH_ONLY=list measures only GET /api/receipts
// (the latency runs), to compare two builds back to back.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { freePort, startPortal, testPostgresUrl, ADMIN_PASSWORD } from '../tests/support/portal.ts';
import { startSmtpServer } from '../tests/support/smtp-server.ts';
import { firstSearchFigures } from './first-search.mjs';
import { lighthouseFigures } from './lighthouse-figures.mjs';
import { magayaFigures } from './bench-magaya.mjs';
import { brandedLoginWeights, pageWeights } from './page-weights.mjs';

const RECEIPTS = Number(process.env.BENCH_RECEIPTS || 100_000);
const LIST_ONLY = process.env.BENCH_ONLY === 'list';
const CONCURRENCY = 10;
const REQUESTS = 2_000;
/** Requests sent to each target of the repeated-request figure, in turns of 2,000. */
const THROUGHPUT_REQUESTS = 20_000;
const THROUGHPUT_TURNS = 10;
/**
 * New searches sent before the measured ones, in each scope. The portal's requests reach their steady
 * cost only after some thousands (V8 compiles the hot code on the same two cores meanwhile, and SQLite's
 * page cache fills), as in a portal that has been in service for a while; with 500, the first measured
 * run still paid for that.
 */
const WARM_UP_REQUESTS = 3_000;
const KB = 1024;
const DEMO_PASSWORD = 'bench-demo-password';
const METRICS_TOKEN = 'bench-metrics-token-0000';
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
/** How often the server's resident memory is read while the CSV export runs. */
const MEMORY_SAMPLE_MS = 20;
/** How often this client's event loop is timed during the latency runs (the histogram holds whole intervals). */
const LOOP_SAMPLE_MS = 5;
const DIGEST_CHANGES = 1_000;
/**
 * How long an idle portal's CPU is measured, from how long after its first sync: the collections of the
 * garbage the sync left take the first seconds.
 */
const IDLE_SECONDS = 30;
const IDLE_SETTLE_SECONDS = 20;
const SORT_KEYS = [
  'receivedDate',
  'number',
  'shipperName',
  'consigneeName',
  'status',
  'destination',
  'modeOfTransportation',
  'origin',
];

console.log(
  `Starting a portal with a ${RECEIPTS.toLocaleString('en-US')}-receipt sandbox on ${testPostgresUrl ? 'PostgreSQL' : 'SQLite'}…`,
);
// Status e-mails go to a real SMTP server in this process; nobody opts in before the digest figure.
const smtp = await startSmtpServer();
const portal = await startPortal({
  SMTP_URL: smtp.url,
  SANDBOX_CONTROL: 'true',
  LOGIN_MAX_ATTEMPTS: '1000',
  SANDBOX_RECEIPTS: String(RECEIPTS),
  // The sandbox's data moves and the portal syncs every 30 s, so the runs below include syncs that
  // change the mirror (and drop every cache built from it), as a live portal's do every 2 minutes.
  SYNC_INTERVAL_SECONDS: '30',
  DEMO_USERS: 'true',
  DEMO_PASSWORD,
  // Tiles are the tile server's bytes, not the portal's (and this machine is offline): an address
  // where nothing listens, so tile requests fail at once and count for nothing.
  MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
  // Behind a proxy, as in production: the sign-in figures send each person's address in X-Forwarded-For.
  TRUST_PROXY: 'true',
  // Production's bcrypt cost, which the tests lower.
  PASSWORD_HASH_COST: '12',
  METRICS_TOKEN,
});
try {
  const syncLine = await waitForOutput(
    /Receipt mirror: full sync of (\d+) receipts in ([\d.]+) s/,
    300_000,
  );
  console.log(
    `\nFull sync: ${Number(syncLine[1]).toLocaleString('en-US')} receipts in ${syncLine[2]} s (budget 60 s)`,
  );

  const admin = await signIn('admin', ADMIN_PASSWORD);
  const customer = await signIn('demo', DEMO_PASSWORD);
  if (LIST_ONLY) await listLatencies(admin, customer);
  else await allFigures(admin, customer);
} finally {
  await portal.stop();
  await smtp.stop();
}

async function allFigures(admin, customer) {
  console.log(
    "\nCSV export of every receipt as the admin (streamed a batch at a time: the server's memory should barely grow):",
  );
  await exportAll(admin);

  console.log(
    '\nPage weight, first visit as a customer (compressed bytes on the wire, the service worker included), in English and in Dutch:',
  );
  await pageWeights(portal.url, customer);
  console.log('\nUploaded images, first visit to /login (compressed bytes on the wire):');
  await brandedLoginWeights(portal.url, admin);

  console.log(
    '\nLighthouse, first visit, simulated Regular 3G (300 ms round trips, 700 kbit/s, 4x CPU slowdown):',
  );
  await lighthouseFigures(portal.url, customer);

  console.log(
    '\nThe first search on /receipts, first visit on a phone, Regular 3G (300 ms round trips, 700 kbit/s, 4x CPU slowdown):',
  );
  await firstSearchFigures(portal.url, customer);

  await listLatencies(admin, customer);
  await latency('GET /api/receipts/stats (customer)', ['/api/receipts/stats'], customer);
  await latency('GET /dashboard (page, customer)', ['/dashboard'], customer);
  await latency('GET /receipts (page, customer)', ['/receipts'], customer);

  console.log(
    "\nA burst of sign-ins (budget: 30 wrong ones for 30 names from 30 addresses all 401 within 6 s; a customer's list within 1 s meanwhile):",
  );
  await signInBurst(customer);

  console.log(
    '\nOne address floods the sign-in (budget: 60 wrong guesses at once keep a correct sign-in from another address at most 1 s beyond its own check):',
  );
  await signInFlood();

  console.log(
    '\nOne repeated request, requests/s (goal: the cached answer ≥ 0.3× bare Node, or ≥ 0.8× the framework ceiling):',
  );
  const cachedPath = '/api/receipts?sortBy=shipperName&sortOrder=asc&page=3';
  const bare = await startBareServer(cachedPath, admin);
  try {
    const [bareRate, ceiling, cachedRate] = await throughputs([
      { label: 'bare node:http, same bytes', base: bare.url, path: '/', cookie: null },
      {
        label: 'framework ceiling (GET /api/config)',
        base: portal.url,
        path: '/api/config',
        cookie: admin,
      },
      { label: 'cached GET /api/receipts', base: portal.url, path: cachedPath, cookie: admin },
    ]);
    console.log(
      `  ratios: cached/bare ${(cachedRate / bareRate).toFixed(2)}, ceiling/bare ${(ceiling / bareRate).toFixed(2)}, cached/ceiling ${(cachedRate / ceiling).toFixed(2)}`,
    );
  } finally {
    bare.stop();
  }

  console.log(
    `\nStatus e-mail digest for ${DIGEST_CHANGES.toLocaleString('en-US')} changed receipts (one customer who sees every consignee):`,
  );
  await digestOfManyChanges(admin);

  console.log(
    `\nAn idle portal on the embedded defaults (the sandbox's demo data, no visitors), its CPU over ${IDLE_SECONDS} s from ${IDLE_SETTLE_SECONDS} s after its first sync:`,
  );
  await idleCpu();
}

/** What a portal nobody visits costs its machine: its timers, its sampling of the event loop, its syncs. */
async function idleCpu() {
  const idle = await startPortal();
  try {
    while (!/Receipt mirror: full sync of \d+ receipts/.test(idle.output()))
      await new Promise((resolve) => setTimeout(resolve, 200));
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_SECONDS * 1000));
    const before = cpuMsOf(idle.pid);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const share = (cpuMsOf(idle.pid) - before) / (performance.now() - started);
    console.log(`  ${(share * 100).toFixed(2)} % of a core`);
  } finally {
    await idle.stop();
  }
}

/** GET /api/receipts: new searches on pages 1–400, and pages never asked before down to the last, every sort either way. */
async function listLatencies(admin, customer) {
  console.log(
    `\nGET /api/receipts, ${CONCURRENCY} connections, ${REQUESTS} requests a run (budget: new searches p99 ≤ 50 ms, no errors):`,
  );
  const searches = newSearches(2 * REQUESTS + 2 * WARM_UP_REQUESTS);
  // Warms the server's code paths with searches of their own; the measured ones are still each sent once.
  await load(
    portal.url,
    newSearchQueries(searches.slice(2 * REQUESTS, 2 * REQUESTS + WARM_UP_REQUESTS), 3),
    admin,
    WARM_UP_REQUESTS,
  );
  await load(
    portal.url,
    newSearchQueries(searches.slice(2 * REQUESTS + WARM_UP_REQUESTS), 4),
    customer,
    WARM_UP_REQUESTS,
  );
  // Most new searches find nothing: their pages with receipts are told apart and shown on their own.
  await latency('new searches (admin)', newSearchQueries(searches.slice(0, REQUESTS), 1), admin, {
    inspect: true,
  });
  await latency(
    'new searches (customer scope)',
    newSearchQueries(searches.slice(REQUESTS, 2 * REQUESTS), 2),
    customer,
    { inspect: true },
  );
  await latency('unfiltered pages, every sort (admin)', variedPages(), admin);
  await latency(
    'deep pages to the last, every sort (admin)',
    deepPages(await receiptCount(admin), 5),
    admin,
  );
  await latency(
    'deep pages, every sort (customer scope)',
    deepPages(await receiptCount(customer), 6),
    customer,
  );
}

if (!LIST_ONLY) await magayaFigures();

/**
 * A customer assigned every consignee opts in; the sandbox moves until that many receipts changed
 * status; then "Sync now" mirrors the changes and queues the digest, which the outbox sends.
 */
async function digestOfManyChanges(adminCookie) {
  await call('POST', '/api/consignees/import', adminCookie);
  const consigneeIds = (await (await call('GET', '/api/consignees', adminCookie)).json()).data.map(
    (consignee) => consignee.id,
  );
  const password = 'bench-digest-password';
  const created = await (
    await call('POST', '/api/auth/users', adminCookie, {
      username: 'digest',
      password,
      role: 'viewer',
      email: 'digest@example.com',
    })
  ).json();
  await call('POST', `/api/consignees/user/${created.data.user.id}/assign`, adminCookie, {
    consigneeIds,
  });
  await call('PUT', '/api/auth/profile/preferences', await signIn('digest', password), {
    statusEmails: true,
  });
  // Whatever a scheduled sync already picked up is out of the way first.
  await call('POST', '/api/sync', adminCookie);
  // The portal syncs every 30 s on its own: a scheduled sync during the moves would mirror part of them
  // (and send their digest) before the sync now, which would then mirror only the rest, or, called
  // while that sync is still finishing, join it and answer its outcome without a digest of its own.
  // With the provider down while its data moves, scheduled syncs fail without writing anything.
  await call('POST', '/sandbox/control/outage');
  // Receipts the sandbox adds meanwhile are first mirrorings at the sync, not changes: they don't count.
  const moved = new Set();
  const added = new Set();
  try {
    // A small sandbox may run out of receipts still moving: then the digest is of as many as moved.
    for (let windows = 0; moved.size < DIGEST_CHANGES && windows < 3_000; windows += 1) {
      const window = await (await call('POST', '/sandbox/control/advance')).json();
      for (const id of window.added) added.add(id);
      for (const id of window.advanced) if (!added.has(id)) moved.add(id);
      for (const id of window.deleted) moved.delete(id);
    }
  } catch (error) {
    await call('POST', '/sandbox/control/recover');
    throw error;
  }
  // Counted before the provider is back: a scheduled sync that slips in before the sync now has every move.
  const before = smtp.messages.length;
  await call('POST', '/sandbox/control/recover');
  const started = performance.now();
  const outcome = (await (await call('POST', '/api/sync', adminCookie)).json()).data;
  const synced = performance.now();
  while (smtp.messages.length === before) await new Promise((resolve) => setTimeout(resolve, 20));
  const delivered = performance.now();
  const mail = smtp.messages[before];
  const lines = mail.text.split('\n').filter((line) => line.includes(' → ')).length;
  console.log(
    `  the sandbox moved ${moved.size.toLocaleString('en-US')} receipts (and added ${added.size.toLocaleString('en-US')}) while the provider was down`,
  );
  console.log(
    `  sync now: ${outcome.written.toLocaleString('en-US')} receipts written, ${outcome.statusChanges.toLocaleString('en-US')} status changes, in ${((synced - started) / 1000).toFixed(2)} s (digests queued inside)`,
  );
  console.log(
    `  the digest arrived ${((delivered - synced) / 1000).toFixed(2)} s after the sync answered: ${lines.toLocaleString('en-US')} lines, ${(smtp.sizes[before] / KB).toFixed(0)} KB on the wire, ${smtp.messages.length - before} message(s)`,
  );
}

/** The server process's resident memory now (VmRSS) and its peak since it started (VmHWM), in bytes. */
function serverMemory() {
  const status = readFileSync(`/proc/${portal.pid}/status`, 'utf8');
  const kilobytes = (field) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1]) * KB;
  return { rss: kilobytes('VmRSS'), peak: kilobytes('VmHWM') };
}

/**
 * GET /api/receipts/export.csv unfiltered, read as a browser reads a download, while the server's
 * VmRSS is sampled: the time, the size, the rows, and the server's memory before and at its highest.
 * (VmHWM is the process's peak since start, which the full sync may have set; the samples are the export's own.)
 */
async function exportAll(cookie) {
  const before = serverMemory().rss;
  let highest = before;
  const sampler = setInterval(
    () => (highest = Math.max(highest, serverMemory().rss)),
    MEMORY_SAMPLE_MS,
  );
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const response = await fetch(`${portal.url}/api/receipts/export.csv`, {
      headers: { Cookie: cookie },
    });
    if (!response.ok) throw new Error(`export: ${response.status} ${await response.text()}`);
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 0x0a) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  highest = Math.max(highest, serverMemory().rss);
  const mb = (value) => `${(value / KB / KB).toFixed(1)} MB`;
  console.log(
    `  ${(lines - 1).toLocaleString('en-US')} rows, ${mb(bytes)} in ${seconds.toFixed(2)} s`,
  );
  console.log(
    `  server RSS ${mb(before)} before, ${mb(highest)} at most during the export (+${mb(highest - before)}); VmHWM since start ${mb(serverMemory().peak)}`,
  );
}

/** A small seeded generator, so that every run sends the same mix. */
function seededRandom(seed) {
  let state = seed;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/**
 * Searches as customers type them: a common fragment and a changing number ('a3', 'mar37', 'inc5',
 * 'lo12', '10', 'wr-1437', …), each sent once in the whole run, so no cache has seen it before.
 */
function newSearches(count) {
  const fragments = [
    '',
    'a',
    'mar',
    'inc',
    'lo',
    'wr-1',
    'par',
    'b.v',
    'tr',
    'co',
    'n.v',
    'ser',
    'e',
  ];
  const random = seededRandom(7);
  const searches = new Set();
  while (searches.size < count) {
    const fragment = fragments[Math.floor(random() * fragments.length)];
    searches.add(`${fragment}${Math.floor(random() * (random() < 0.5 ? 100 : 1000))}`);
  }
  return [...searches];
}

/** Each search once, on a page from 1 to 400, by any sort key either way. */
function newSearchQueries(searches, seed) {
  const random = seededRandom(seed);
  return searches.map((search) => {
    const page = 1 + Math.floor(random() * 400);
    const sortBy = SORT_KEYS[Math.floor(random() * SORT_KEYS.length)];
    const sortOrder = random() < 0.5 ? 'asc' : 'desc';
    return `/api/receipts?search=${encodeURIComponent(search)}&page=${page}&sortBy=${sortBy}&sortOrder=${sortOrder}`;
  });
}

/** Distinct unfiltered pages (1–250) by every sort key both ways: the response cache answers none of them. */
function variedPages() {
  const urls = [];
  for (let page = 1; urls.length < REQUESTS; page += 1) {
    for (const sortBy of SORT_KEYS)
      for (const sortOrder of ['asc', 'desc'])
        urls.push(`/api/receipts?page=${page}&sortBy=${sortBy}&sortOrder=${sortOrder}`);
  }
  return urls.slice(0, REQUESTS);
}

/** How many receipts the list holds for a user. */
async function receiptCount(cookie) {
  return (await (await call('GET', '/api/receipts?limit=1', cookie)).json()).pagination.totalItems;
}

/** Pages never asked before anywhere between the first and the last of `receipts` unfiltered, every sort key either way. */
function deepPages(receipts, seed) {
  const random = seededRandom(seed);
  const lastPage = Math.ceil(receipts / 25);
  const urls = new Set();
  while (urls.size < Math.min(REQUESTS, lastPage * SORT_KEYS.length * 2)) {
    const page = 1 + Math.floor(random() * lastPage);
    const sortBy = SORT_KEYS[Math.floor(random() * SORT_KEYS.length)];
    const sortOrder = random() < 0.5 ? 'asc' : 'desc';
    urls.add(`/api/receipts?page=${page}&sortBy=${sortBy}&sortOrder=${sortOrder}`);
  }
  return [...urls];
}

/**
 * A bare node:http server in a process of its own, answering every request with what the portal
 * answered for `path`: the same JSON, brotli-compressed once as the portal compresses it (quality 4).
 */
async function startBareServer(path, cookie) {
  const response = await fetch(portal.url + path, { headers: { Cookie: cookie } });
  const json = await response.text();
  const port = await freePort();
  const source = `
    const zlib = require('node:zlib');
    const body = zlib.brotliCompressSync(${JSON.stringify(json)}, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': 'br' };
    require('node:http').createServer((req, res) => { res.writeHead(200, headers); res.end(body); }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** A sign-in from `address` (the proxy's X-Forwarded-For): its status and how long it took. */
async function timedSignIn(username, password, address) {
  const started = performance.now();
  const response = await fetch(`${portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { Origin: portal.url, 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({ username, password }),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

/** 30 wrong sign-ins for 30 names from 30 addresses at once, a signed-in customer's list request in the middle of them. */
async function signInBurst(customer) {
  const started = performance.now();
  const attempts = Array.from({ length: 30 }, (_, index) =>
    timedSignIn(`burst-${index}`, `wrong-password-${index}`, `198.51.100.${index + 1}`).then(
      ({ status }) => ({ status, ms: performance.now() - started }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  const listStarted = performance.now();
  const list = await get(`${portal.url}/api/receipts?page=2`, {
    Cookie: customer,
    'Accept-Encoding': 'gzip, br',
  });
  const listMs = performance.now() - listStarted;
  const answers = await Promise.all(attempts);
  const statuses = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  const slowest = Math.max(...answers.map((answer) => answer.ms));
  console.log(
    `  statuses ${JSON.stringify(statuses)}, slowest ${(slowest / 1000).toFixed(1)} s; the customer's list: ${list.status} in ${listMs.toFixed(0)} ms`,
  );
}

/** 60 wrong guesses at once from one address, and 100 ms later the demo customer's correct sign-in from another. */
async function signInFlood() {
  const alone = [];
  for (let run = 0; run < 3; run++)
    alone.push((await timedSignIn('demo', DEMO_PASSWORD, '198.51.100.200')).ms);
  const ownCheck = Math.min(...alone);
  const guesses = Promise.all(
    Array.from({ length: 60 }, (_, index) =>
      timedSignIn(`flood-${index}`, `wrong-password-${index}`, '203.0.113.66'),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  const correct = await timedSignIn('demo', DEMO_PASSWORD, '198.51.100.200');
  const statuses = {};
  for (const { status } of await guesses) statuses[status] = (statuses[status] ?? 0) + 1;
  console.log(
    `  the flood: ${JSON.stringify(statuses)}; the correct sign-in: ${correct.status} in ${correct.ms.toFixed(0)} ms, ${(correct.ms - ownCheck).toFixed(0)} ms beyond its own check (${ownCheck.toFixed(0)} ms alone)`,
  );
}

/** The syncs the portal has run, by /metrics. */
async function syncCount() {
  const response = await fetch(`${portal.url}/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  return [...text.matchAll(/^portal_syncs_total\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

async function waitForOutput(pattern, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(portal.output());
    if (match) return match;
    if (Date.now() > deadline)
      throw new Error(`no "${pattern}" in the portal's output:\n${portal.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function call(method, path, cookie, json) {
  const headers = { Origin: portal.url };
  if (cookie) headers.Cookie = cookie;
  if (json) headers['Content-Type'] = 'application/json';
  const response = await fetch(portal.url + path, {
    method,
    headers,
    body: json && JSON.stringify(json),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

async function signIn(username, password) {
  const response = await call('POST', '/api/auth/login', null, { username, password });
  return response.headers.getSetCookie()[0].split(';')[0];
}

/** One GET over the keep-alive agent; the body as received (compressed bytes are not decoded). */
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          encoding: response.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    // A kept-alive socket the server closed just as it was reused: Node's advice is to send again.
    request.on('error', (error) =>
      request.reusedSocket && error.code === 'ECONNRESET'
        ? get(url, headers).then(resolve, reject)
        : reject(error),
    );
  });
}

/** Whether a list answer has receipts (an empty page starts the same way whatever the page). */
function hasReceipts({ encoding, body }) {
  const text =
    encoding === 'br'
      ? zlib.brotliDecompressSync(body)
      : encoding === 'gzip'
        ? zlib.gunzipSync(body)
        : body;
  return !text.toString('utf8', 0, 40).startsWith('{"success":true,"data":[]');
}

/** Sends `count` requests over CONCURRENCY keep-alive connections, each path once in turn; answers the timings. */
async function load(base, paths, cookie, count, { inspect = false } = {}) {
  const headers = { 'Accept-Encoding': 'gzip, br' };
  if (cookie) headers.Cookie = cookie;
  const timings = [];
  const filled = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const path = paths[next % paths.length];
        next += 1;
        const begin = performance.now();
        const response = await get(base + path, headers);
        const time = performance.now() - begin;
        timings.push(time);
        if (response.status >= 400) errors += 1;
        else if (inspect && hasReceipts(response)) filled.push(time);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  timings.sort((a, b) => a - b);
  filled.sort((a, b) => a - b);
  return { timings, filled, errors, rate: timings.length / seconds };
}

/** The CPU time a process has used, all its threads, in ms (Linux). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, the 14th and 15th fields of the line, in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function percentile(sorted, p) {
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1)
    : '–';
}

/**
 * `inspect`: tells the answers with receipts from the empty ones, which decompresses every answer
 * here, on the portal's cores; only the runs of new searches need it.
 */
async function latency(label, paths, cookie, { inspect = false } = {}) {
  // The load comes from this process, on the same cores as the portal: how late its own event loop ran
  // is part of every time measured here, and is shown beside them.
  const clientDelay = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
  clientDelay.enable();
  const clientCpu = process.cpuUsage();
  const serverCpu = cpuMsOf(portal.pid);
  const syncsBefore = await syncCount();
  const { timings, filled, errors, rate } = await load(portal.url, paths, cookie, REQUESTS, {
    inspect,
  });
  const serverCpuMs = cpuMsOf(portal.pid) - serverCpu;
  // A sync during the run (every 30 s here) and the reading of the mirror's next state it brings are
  // in its slowest answers.
  const syncs = (await syncCount()) - syncsBefore;
  const { user, system } = process.cpuUsage(clientCpu);
  clientDelay.disable();
  const pct = (p) => percentile(timings, p);
  // Pages past a search's end answer without reading rows; the pages with receipts are shown on their own.
  const filledNote =
    filled.length && filled.length < timings.length
      ? `; the ${filled.length} pages with receipts: p50 ${percentile(filled, 50)} ms, p99 ${percentile(filled, 99)} ms`
      : '';
  // What a request cost the portal (all its threads: the event loop, the thread pool's SQLite reads and
  // compression, the garbage collector) and this client, on the same cores: the latencies follow from it.
  const clientNote = `; this client's event loop late by p99 ${(clientDelay.percentile(99) / 1e6 - LOOP_SAMPLE_MS).toFixed(1)} ms; load average ${os.loadavg()[0].toFixed(1)}; CPU a request: server ${(serverCpuMs / timings.length).toFixed(2)} ms, this client ${((user + system) / 1000 / timings.length).toFixed(2)} ms; syncs meanwhile: ${syncs}`;
  console.log(
    `  ${label.padEnd(38)} p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, ${rate.toFixed(0)} req/s, ${errors} errors${filledNote}${clientNote}`,
  );
}

/**
 * Requests/s of each target, taken in short turns, one target after another, so that whatever else the
 * machine does meanwhile (a sync and the rebuild it brings, the other processes on its two cores)
 * falls on every target alike: measured in rounds of 10,000 requests, one round could vary by 40 %
 * and move a ratio by a fifth. Prints each target's rate and the range of its turns.
 */
async function throughputs(targets) {
  for (const { base, path, cookie } of targets) await load(base, [path], cookie, 1_000);
  const turns = targets.map(() => []);
  for (let turn = 0; turn < THROUGHPUT_TURNS; turn += 1) {
    for (const [index, { base, path, cookie }] of targets.entries()) {
      const { rate, errors } = await load(
        base,
        [path],
        cookie,
        THROUGHPUT_REQUESTS / THROUGHPUT_TURNS,
      );
      if (errors) throw new Error(`${path}: ${errors} errors`);
      turns[index].push(rate);
    }
  }
  return targets.map(({ label }, index) => {
    // Every turn sends as many requests, so the rate of them all is the harmonic mean of the turns' rates.
    const rate =
      turns[index].length / turns[index].reduce((seconds, turnRate) => seconds + 1 / turnRate, 0);
    const sorted = [...turns[index]].sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(38)} ${rate.toFixed(0)} req/s (turns of ${THROUGHPUT_REQUESTS / THROUGHPUT_TURNS} requests: ${sorted[0].toFixed(0)}–${sorted.at(-1).toFixed(0)})`,
    );
    return rate;
  });
}
