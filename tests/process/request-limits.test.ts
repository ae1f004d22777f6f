/**
 * What a stranger can send: bodies of any size, control characters, broken URLs, wrong methods, a
 * connection dropped mid-body. Each gets a clear 4xx, costs the server no memory to speak of and
 * leaves no "Unhandled error" in its log. And a page that fails shows a plain error page.
 */
import http from 'node:http';
import net from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, testPostgresUrl, type Portal } from '../support/portal';
import type { ApiClient } from '../support/api-client';
import { LOGO_MAX_BYTES } from '~/shared/constants';
import {
  eventually,
  expectError,
  signedInAdmin,
  waitForMirror,
  writeDatabase,
} from '../support/api-steps';

const MB = 1024 * 1024;
const STREAMED_BYTES = 300 * MB;
const FILLER = Buffer.alloc(64 * 1024, 'a');
const BOUNDARY = 'request-limits-boundary';

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

/** The server's resident memory, as the kernel counts it. */
async function serverRssMb(): Promise<number> {
  const status = await readFile(`/proc/${portal.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) / 1024;
}

interface StreamedAnswer {
  status: number;
  body: string;
  sentMb: number;
}

/** A chunked POST without a length, as the admin (whose session the sign-in form would redirect). */
function chunkedPost(path: string, headers: Record<string, string>): http.ClientRequest {
  const session = path === '/login' ? {} : { Cookie: admin.cookie! };
  return http.request(new URL(path, portal.url), {
    method: 'POST',
    headers: { Origin: portal.url, 'Transfer-Encoding': 'chunked', ...session, ...headers },
  });
}

/**
 * POSTs `head` and then filler up to `fillerBytes` or until the server answers, whichever comes first:
 * a sender that never stops unless told to.
 */
function streamBody(
  path: string,
  headers: Record<string, string>,
  head: string,
  fillerBytes = STREAMED_BYTES,
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = chunkedPost(path, headers);
    request.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        request.destroy();
        resolve({
          status: response.statusCode!,
          body: Buffer.concat(parts).toString(),
          sentMb: Math.round(sent / MB),
        });
      });
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = () => {
      while (!answered && sent < fillerBytes) {
        sent += FILLER.length;
        if (!request.write(FILLER)) return void request.once('drain', write);
      }
      if (!answered) request.end();
    };
    request.write(head);
    write();
  });
}

const abortedRequests = () => portal.output().split('"aborted":true').length - 1;

/** Sends the start of a body, then drops the connection; settles once the server has logged the request as aborted. */
async function abandonBody(
  path: string,
  headers: Record<string, string>,
  head: string,
): Promise<void> {
  const abortedBefore = abortedRequests();
  const request = chunkedPost(path, headers);
  request.on('error', () => {});
  await new Promise<void>((resolve) =>
    request.write(Buffer.concat([Buffer.from(head), FILLER.subarray(0, 4096)]), () => resolve()),
  );
  request.destroy();
  await eventually(abortedRequests, (count) => count > abortedBefore);
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };
const MULTIPART_TYPE = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
const multipartHead = (field: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;

describe('bodies without a length', () => {
  const cases: Array<[string, string, Record<string, string>, string]> = [
    ['a JSON sign-in', '/api/auth/login', JSON_TYPE, '{"username":"admin","password":"'],
    ['the sign-in form', '/login', FORM_TYPE, 'username=admin&password='],
    [
      "the sandbox's consent form",
      '/sandbox/oauth/authorize',
      FORM_TYPE,
      'decision=authorize&state=',
    ],
    [
      'an upload whose part is not the image',
      '/api/logo/upload',
      MULTIPART_TYPE,
      multipartHead('other'),
    ],
  ];

  it.each(cases)(
    'when %s streams 300 MB, then it answers 413 early and the server grows by less than 50 MB',
    async (_name, path, headers, head) => {
      const before = await serverRssMb();
      const answer = await streamBody(path, headers, head);
      const after = await serverRssMb();
      console.log(
        `${path}: ${answer.status} after ${answer.sentMb} MB sent; server RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`,
      );
      expect(answer.status).toBe(413);
      if (path.startsWith('/api/'))
        expect(JSON.parse(answer.body)).toMatchObject({
          success: false,
          errorType: 'PAYLOAD_TOO_LARGE',
        });
      else expect(answer.body).toContain('Request body is too large');
      expect(after - before).toBeLessThan(50);
      expect((await admin.get('/api/auth/profile')).status).toBe(200);
    },
  );

  it('when a body under the limit comes without a length, then it is read as before', async () => {
    const answer = await streamBody(
      '/api/auth/login',
      JSON_TYPE,
      '{"username":"admin","password":"wrong-password"}',
      0,
    );
    expect(answer.status).toBe(401);
  });
});

describe('a refused body that keeps coming', () => {
  /**
   * Writes a whole request (the body comes whether or not the server wants it, as a browser's upload
   * does), then a GET on the same connection; resolves with the status line of each answer.
   */
  async function sendThenAsk(
    head: string,
    body: Buffer,
    framing: 'length' | 'chunked',
  ): Promise<{ statuses: string[]; first: string }> {
    const { hostname, port } = new URL(portal.url);
    const socket = net.connect(Number(port), hostname);
    let received = '';
    let failure: Error | undefined;
    socket.on('data', (part: Buffer) => (received += part.toString('latin1')));
    socket.on('error', (error) => (failure = error));
    const host = portal.url.slice('http://'.length);
    const framed =
      framing === 'length'
        ? [`Content-Length: ${body.length}\r\n\r\n`, body]
        : [
            `Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`,
            body,
            '\r\n0\r\n\r\n',
          ];
    socket.write(`${head}Host: ${host}\r\nOrigin: ${portal.url}\r\n`);
    for (const part of framed) socket.write(part);
    socket.write(`GET /api/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    // Each answer's status line; the one before it ends in its JSON body, not a line break.
    const statuses = () => {
      if (failure) throw failure;
      return received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    };
    try {
      return { statuses: await eventually(statuses, (seen) => seen.length === 2), first: received };
    } finally {
      socket.destroy();
    }
  }

  it('when a JSON body over the limit comes anyway, then the sender reads the 413 and its message, and the same connection answers its next request', async () => {
    const answer = await sendThenAsk(
      'POST /api/auth/login HTTP/1.1\r\nContent-Type: application/json\r\n',
      Buffer.alloc(8 * MB, 'a'),
      'length',
    );
    expect(answer.statuses).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
    expect(answer.first).toContain('"errorType":"PAYLOAD_TOO_LARGE"');
  });

  it('when an upload passes its limit part-way, then the rest is read and dropped: the sender reads the 413 and its message, and the same connection answers its next request', async () => {
    // Without a length, so the server starts reading; the file is several times its limit.
    const file = Buffer.alloc(8 * LOGO_MAX_BYTES, 0x89);
    const body = Buffer.concat([
      Buffer.from(multipartHead('logo')),
      file,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const answer = await sendThenAsk(
      `POST /api/logo/upload HTTP/1.1\r\nCookie: ${admin.cookie}\r\nContent-Type: ${MULTIPART_TYPE['Content-Type']}\r\n`,
      body,
      'chunked',
    );
    expect(answer.statuses).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
    expect(answer.first).toContain('"errorType":"PAYLOAD_TOO_LARGE"');
  });
});

describe('connections dropped mid-body', () => {
  it('when a client disconnects in the middle of an upload or a JSON body, then nothing is logged as an unhandled error', async () => {
    await abandonBody('/api/logo/upload', MULTIPART_TYPE, multipartHead('logo'));
    await abandonBody('/api/auth/login', JSON_TYPE, '{"username":"admin","password":"');
    expect(portal.output()).not.toContain('Unhandled error');
    expect((await admin.get('/api/logo/info')).status).toBe(200);
  });
});

describe('control characters', () => {
  it.each([
    ['/api/receipts?search=ab%00cd', 'Search must not contain control characters'],
    [
      '/api/receipts?trackingNumber=TRK%0012345678',
      'Tracking number must not contain control characters',
    ],
    [
      '/api/package-tracker/search?trackingNumber=TRK%0012345678',
      'Tracking number must not contain control characters',
    ],
    ['/api/receipts?search=line%0Abreak', 'Search must not contain control characters'],
  ])('when %s is asked for, then it is a 400 that says so', async (path, message) => {
    expectError(await admin.get(path), 400, 'VALIDATION_ERROR', message);
    expect(portal.output()).not.toMatch(/Unhandled error|SELECT/);
  });
});

describe('malformed URLs', () => {
  it.each(['/%E0%A4%A', '/api/receipts?search=%', '/receipts?search=%E0%A4%A'])(
    'when %s is asked for, then it is a 400, not logged as an error',
    async (path) => {
      const response = await fetch(`${portal.url}${path}`, {
        headers: { Cookie: admin.cookie! },
        redirect: 'manual',
      });
      expect(response.status).toBe(400);
      if (path.startsWith('/api/'))
        expect(await response.json()).toMatchObject({
          success: false,
          errorType: 'VALIDATION_ERROR',
          message: 'Malformed URL',
        });
      expect(portal.output()).not.toMatch(/\[ERROR\]|Unhandled error/);
    },
  );
});

describe('wrong methods', () => {
  it.each([
    ['POST', '/api/receipts', 'GET'],
    ['DELETE', '/api/auth/login', 'POST'],
    ['GET', '/api/auth/login', 'POST'],
    ['PATCH', '/api/auth/users/1', 'PUT, DELETE'],
  ])('when %s %s is asked for, then it is a 405 with Allow: %s', async (method, path, allow) => {
    const response = await admin.request(method, path);
    expectError(
      response,
      405,
      'METHOD_NOT_ALLOWED',
      new RegExp(`^Method ${method} is not allowed here`),
    );
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('when a path no endpoint serves is asked for, then it stays a 404', async () => {
    expectError(
      await admin.request('POST', '/api/no-such-thing'),
      404,
      'NOT_FOUND',
      'Endpoint not found',
    );
  });
});

describe('a failing page', () => {
  it.each([
    // User-Consignee Management lists the assignments: the page itself fails.
    ['/admin/user-consignees', 'consignee_assignments'],
    // Every request looks up its session: the middleware fails, on the error page too.
    ['/profile', 'sessions'],
  ])(
    'when %s fails on the server (its %s table is gone), then it answers a plain 500 page with a way back, logged once with method and path',
    async (path, table) => {
      await writeDatabase(portal, `ALTER TABLE ${table} RENAME TO ${table}_elsewhere`);
      try {
        // A session checked in the last second is taken as it was: asked again until the lookup meets the change.
        const response = await eventually(
          () =>
            fetch(`${portal.url}${path}`, {
              headers: { Cookie: admin.cookie! },
              redirect: 'manual',
            }),
          (answer) => answer.status !== 200,
          5_000,
        );
        const html = await response.text();
        expect(response.status).toBe(500);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(html).toContain('Something went wrong');
        expect(html).toMatch(/<a [^>]*href="\/dashboard"[^>]*>Back to the dashboard<\/a>/);
        expect(html).not.toMatch(/no such table|does not exist|SQLITE|\.mjs|\bat \w+ \(/);
        expect(portal.output().split(`"msg":"GET ${path} failed"`)).toHaveLength(2);
        expect(portal.output()).toContain(
          testPostgresUrl ? `relation "${table}" does not exist` : 'no such table',
        );
        expect(portal.output()).not.toContain('[ERROR]');
      } finally {
        await writeDatabase(portal, `ALTER TABLE ${table}_elsewhere RENAME TO ${table}`);
      }
      expect(
        (
          await fetch(`${portal.url}${path}`, {
            headers: { Cookie: admin.cookie! },
            redirect: 'manual',
          })
        ).status,
      ).toBe(200);
    },
  );
});
