// `npm run bench`: the budgets of design.md, measured on a portal started from the build on a temporary database.
// Page weights are what Chromium received (compressed bytes on the wire, first visit, empty cache);
// latencies come from 10 concurrent keep-alive clients on this machine.
import { chromium } from '@playwright/test';
import { startPortal, ADMIN_PASSWORD } from '../tests/support/portal.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/support/chromium.ts';

const CONCURRENCY = 10;
const REQUESTS = 2_000;
const KB = 1024;

const portal = await startPortal({ LOGIN_MAX_ATTEMPTS: '1000' });
try {
  const admin = await signIn('admin', ADMIN_PASSWORD);
  const customer = { username: 'bench-customer', password: 'bench-password' };
  await call('POST', '/api/auth/users', admin, { ...customer, fullName: 'Bench Customer', role: 'viewer' });
  const customerCookie = await signIn(customer.username, customer.password);

  console.log('\nPage weight, first visit as a customer (compressed bytes on the wire):');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  for (const [path, cookie] of [['/login', null], ['/dashboard', customerCookie], ['/profile', customerCookie]]) {
    const weight = await pageWeight(browser, path, cookie);
    console.log(
      `  ${path.padEnd(12)} ${kb(weight.total)} in ${weight.requests} requests` +
        ` (HTML ${kb(weight.html)}, CSS ${kb(weight.css)}, JS ${kb(weight.js)}, other ${kb(weight.other)})`,
    );
  }
  await browser.close();

  console.log(`\nLatency, ${REQUESTS} requests from ${CONCURRENCY} concurrent clients:`);
  await latency('GET /api/auth/profile (customer)', '/api/auth/profile', customerCookie);
  await latency('GET /login (page)', '/login', null);
  await latency('GET /dashboard (page, customer)', '/dashboard', customerCookie);
} finally {
  await portal.stop();
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

async function pageWeight(browser, path, cookie) {
  const context = await browser.newContext();
  if (cookie) {
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: portal.url }]);
  }
  const page = await context.newPage();
  const weight = { total: 0, html: 0, css: 0, js: 0, other: 0, requests: 0 };
  const pending = [];
  page.on('requestfinished', (request) => {
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
  });
  await page.goto(portal.url + path, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  await context.close();
  return weight;
}

async function latency(label, path, cookie) {
  const headers = { 'Accept-Encoding': 'gzip, br' };
  if (cookie) headers.Cookie = cookie;
  const timings = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
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
  console.log(`  ${label.padEnd(34)} p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, ${(timings.length / seconds).toFixed(0)} req/s`);
}

function kb(bytes) {
  return `${(bytes / KB).toFixed(1)} KB`;
}
