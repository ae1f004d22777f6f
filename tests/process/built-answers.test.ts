/**
 * What only the built server makes (server.mjs and the build): the compression of uncached answers
 * beside the cached ones' own, the pages' Content-Security-Policy, how long an idle connection is kept,
 * the compiled code it keeps for its next start, and a start from another working folder.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import type { Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { signedInAdmin, waitForMirror } from '../support/api-steps';
import { startPortal, type Portal } from '../support/portal';
import { authorizeParams, CLIENT_ID, pkcePair, sandboxGet } from '../support/sandbox-steps';

let portal: Portal;
let admin: ApiClient;

beforeAll(async () => {
  portal = await startPortal({ SYNC_INTERVAL_SECONDS: '3600', SANDBOX_RECEIPTS: '300' });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  // Joins the start's sync until its mirror is followed: the cache it then clears is cleared before the tests, not between two requests of one.
  expect((await admin.post('/api/sync')).status).toBe(200);
});

afterAll(async () => {
  await portal?.stop();
});

describe('start-up', () => {
  it("when the built server has started, then V8's compiled code of what it loaded is kept for the next start", async () => {
    // Node's compile cache: a folder per Node version, architecture and set of V8 flags, a file per
    // module compiled.
    const cache = path.resolve(
      import.meta.dirname,
      '../../node_modules/.cache/portal-compile-cache',
    );
    const forThisNode = (await readdir(cache)).filter((name) =>
      name.startsWith(`v${process.versions.node}-${process.arch}-`),
    );
    const modulesKept = await Promise.all(
      forThisNode.map(async (name) => (await readdir(path.join(cache, name))).length),
    );
    expect(Math.max(0, ...modulesKept)).toBeGreaterThan(50);
  });
});

describe('started from another folder', () => {
  it('when the server is started from a folder other than its own, then its pages carry their first-paint rules and its built assets are served', async () => {
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'portal-elsewhere-'));
    const started = await startPortal({ SYNC_INTERVAL_SECONDS: '3600' }, { cwd: elsewhere });
    try {
      const login = await fetch(`${started.url}/login`);
      expect(login.status).toBe(200);
      const html = await login.text();
      // A first visit's page carries its stylesheet's rules inline, read from the build beside server.mjs.
      expect(/<style>[^<]*\.btn[^<]*<\/style>/.test(html)).toBe(true);
      const assets = [...html.matchAll(/(?:src|href)="(\/_astro\/[^"]+)"/g)].map(
        (match) => match[1]!,
      );
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets)
        expect((await fetch(`${started.url}${asset}`)).status, asset).toBe(200);
    } finally {
      await started.stop();
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('response cache', () => {
  it('when a browser accepts several encodings alike, then a cached answer is compressed as the uncached one was (brotli)', async () => {
    const query = '/api/receipts?sortBy=number&page=3';
    const chrome = { headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' } };
    const first = await admin.get(query, chrome);
    const second = await admin.get(query, chrome);
    expect(second.body.meta.cached).toBe(true);
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(second.headers.get('content-encoding')).toBe('br');
    expect(second.body.data).toEqual(first.body.data);
  });
});

describe("the sandbox's consent page", () => {
  it('when the authorize URL is valid, then the page names the client and the scope and offers Authorize and Deny, without React', async () => {
    const { status, headers, body } = await sandboxGet(
      portal,
      `/oauth/authorize?${authorizeParams(portal, pkcePair().challenge)}`,
    );
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('text/html');
    expect(body).toContain('Authorize Freight Portal');
    expect(body).toContain(CLIENT_ID);
    expect(body).toContain('receipts');
    expect(body).toMatch(/<button[^>]*value="authorize"[^>]*>Authorize<\/button>/);
    expect(body).toMatch(/<button[^>]*value="deny"[^>]*>Deny<\/button>/);
    expect(body).toMatch(/<form method="post"/);
    expect(body).not.toContain('astro-island');
    expect(headers.get('content-security-policy')).toContain("form-action 'self'");
  });
});

describe('kept-alive connections', () => {
  /** GET /api/health through `agent`: its status, and the connection it came on. */
  const health = (agent: http.Agent) =>
    new Promise<{ status: number | undefined; socket: Socket }>((resolve, reject) => {
      http
        .get(new URL('/api/health', portal.url), { agent }, (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode, socket: response.socket }),
          );
        })
        .on('error', reject);
    });

  it('when a client reuses an idle connection after its event loop stalled for seconds, then it is answered, not reset', async () => {
    // As Playwright's request contexts and many proxies do: idle connections are kept with no timer of
    // their own, so the server's closing one is only seen once the client's event loop runs again.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await health(agent);
      // The stall itself, without a busy loop: longer than the 5 s Node keeps an idle connection by default.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 7_000);
      const second = await health(agent);
      expect(second.status).toBe(200);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });
});
