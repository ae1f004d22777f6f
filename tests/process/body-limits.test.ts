/**
 * No route reads a request body without a bound: every route file under src/pages that takes a POST
 * or PUT gets 50 MB streamed at it without a length, as JSON, as a form and as a multipart upload, and
 * the server's peak memory must not grow by the body. The sandbox's revocation endpoint, anonymous,
 * once read 300 MB whole.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type Portal } from '../support/portal';
import type { ApiClient } from '../support/api-client';
import { signedInAdmin, waitForMirror } from '../support/api-steps';
import { stallLimit } from '../support/test-pace';

const MB = 1024 * 1024;
const FILLER = Buffer.alloc(64 * 1024, 'a');
const BOUNDARY = 'body-limits-boundary';
const PAGES = path.resolve(import.meta.dirname, '../../src/pages');

let portal: Portal;
let admin: ApiClient;

beforeAll(async () => {
  portal = await startPortal({ SYNC_INTERVAL_SECONDS: '3600', SANDBOX_RECEIPTS: '50' });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
});

afterAll(async () => {
  await portal?.stop();
});

/** A route that takes a body: its method and a path that reaches its file. */
interface BodyRoute {
  method: 'POST' | 'PUT';
  path: string;
  file: string;
}

async function routeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|astro)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The URL path of a route file, its parameters filled with a value that names something or nothing. */
function pathOf(file: string): string {
  const route = path
    .relative(PAGES, file)
    .replace(/\.(ts|astro)$/, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\[\.\.\.[^\]]+\]/g, 'anything')
    .replace(/\[[^\]]+\]/g, '1');
  return `/${route}`;
}

/** Endpoints by their exported handlers; pages by reading a form when posted. */
async function bodyRoutes(): Promise<BodyRoute[]> {
  const routes: BodyRoute[] = [];
  for (const file of await routeFiles(PAGES)) {
    const source = await readFile(file, 'utf8');
    const methods = file.endsWith('.astro')
      ? /request\.method === 'POST'/.test(source)
        ? ['POST']
        : []
      : [...source.matchAll(/export const (POST|PUT|ALL)\b/g)].flatMap(([, method]) =>
          method === 'ALL' ? ['POST', 'PUT'] : [method!],
        );
    for (const method of new Set(methods))
      routes.push({
        method: method as BodyRoute['method'],
        path: pathOf(file),
        file: path.relative(PAGES, file),
      });
  }
  return routes;
}

async function processStatus(field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${portal.pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)![1]) / 1024;
}

/**
 * The server's peak resident memory while `work` runs, above what it held before: the kernel's
 * high-water mark, reset first (as root); elsewhere the resident memory sampled every 5 ms.
 */
async function peakGrowthMb(work: () => Promise<unknown>): Promise<number> {
  const before = await processStatus('VmRSS');
  const resettable = await writeFile(`/proc/${portal.pid}/clear_refs`, '5').then(
    () => true,
    () => false,
  );
  let sampledPeak = before;
  const sampler = resettable
    ? undefined
    : setInterval(
        () => void processStatus('VmRSS').then((mb) => (sampledPeak = Math.max(sampledPeak, mb))),
        5,
      );
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const peak = resettable ? await processStatus('VmHWM') : sampledPeak;
  return peak - before;
}

interface StreamedAnswer {
  status: number;
  sentMb: number;
}

/**
 * Sends `head`, then filler up to `bytes` or until the server answers: a sender that stops only when
 * told to. As the signed-in admin, unless `anonymous`.
 */
function stream(
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  head: string,
  bytes: number,
  anonymous = false,
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const session = anonymous ? {} : { Cookie: admin.cookie! };
    const request = http.request(new URL(urlPath, portal.url), {
      method,
      headers: { Origin: portal.url, ...session, 'Transfer-Encoding': 'chunked', ...headers },
    });
    request.on('response', (response) => {
      answered = true;
      response.resume();
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode!, sentMb: Math.round(sent / MB) });
      });
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = () => {
      while (!answered && sent < bytes) {
        sent += FILLER.length;
        if (!request.write(FILLER)) return void request.once('drain', write);
      }
      if (!answered) request.end();
    };
    request.write(head);
    write();
  });
}

const BODIES: Array<[kind: string, headers: Record<string, string>, head: string]> = [
  ['JSON', { 'Content-Type': 'application/json' }, '{"value":"'],
  ['a form', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'value='],
  [
    'a multipart upload',
    { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  ],
];

describe('every route that takes a body', () => {
  it(
    'when 50 MB without a length are streamed at each POST and PUT route, as JSON, a form and an upload, then the server never holds the body',
    async () => {
      const routes = await bodyRoutes();
      // The walk finds what it must: the API, the pages' forms and the sandbox's endpoints.
      expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
        expect.arrayContaining([
          'POST /api/auth/login',
          'PUT /api/auth/users/1',
          'POST /login',
          'POST /sandbox/oauth/authorize',
          'POST /sandbox/oauth/token',
          'POST /sandbox/oauth/revoke',
        ]),
      );
      const grown: string[] = [];
      // Signing out would end the admin's session for the routes after it.
      for (const route of routes.filter((route) => !/logout/.test(route.path))) {
        for (const [kind, headers, head] of BODIES) {
          // Once small, so that loading the route's code is not counted as its body.
          await stream(route.method, route.path, headers, head, 0);
          let answer: StreamedAnswer | undefined;
          const growth = await peakGrowthMb(
            async () => (answer = await stream(route.method, route.path, headers, head, 50 * MB)),
          );
          if (growth > 20)
            grown.push(
              `${route.method} ${route.path} (${route.file}) with ${kind}: +${growth.toFixed(0)} MB, ${answer!.status} after ${answer!.sentMb} MB`,
            );
        }
      }
      expect(grown).toEqual([]);
      expect((await admin.get('/api/auth/profile')).status).toBe(200);
    },
    stallLimit(600_000),
  );
});

describe("the sandbox's revocation endpoint", () => {
  it('when an anonymous client streams 300 MB of form at it, then it answers 413 early and the server grows by no more than 10 MB meanwhile', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    await stream('POST', '/sandbox/oauth/revoke', form, 'token=', 0, true);
    let answer: StreamedAnswer | undefined;
    const growth = await peakGrowthMb(
      async () =>
        (answer = await stream('POST', '/sandbox/oauth/revoke', form, 'token=', 300 * MB, true)),
    );
    console.log(
      `/sandbox/oauth/revoke: ${answer!.status} after ${answer!.sentMb} MB sent; server peak +${growth.toFixed(1)} MB`,
    );
    expect(answer!.status).toBe(413);
    // Refused at 8 KB, but the client stops sending only once its event loop has read the answer, and
    // loopback moves about a gigabyte a second meanwhile: the margin grows with the machine's pace, as
    // a time limit does (a busy run sent 13 MB). A server that read the whole body would send 300.
    expect(answer!.sentMb).toBeLessThan(stallLimit(10));
    expect(growth).toBeLessThanOrEqual(10);
  });
});
