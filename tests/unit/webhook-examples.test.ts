/**
 * The JavaScript examples of docs/api.md "Checking a delivery" run as printed, against deliveries
 * signed by the `standardwebhooks` package (the Standard Webhooks reference implementation): a
 * genuine one is accepted, and a changed body, another secret, a stale timestamp or a missing header
 * is refused.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Inside the project, so that the examples' imports resolve from its node_modules. */
const SCRATCH = path.join(ROOT, '.tmp', 'webhook-examples');

const jsExamples = [
  ...readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8').matchAll(/```js\n([\s\S]*?)```/g),
].map((match) => match[1]!);
const example = (marker: string) => {
  const found = jsExamples.filter((code) => code.includes(marker));
  expect(found).toHaveLength(1);
  return found[0]!;
};

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  type: 'receipt.status_changed',
  timestamp: '2026-05-04T10:00:00.000Z',
  data: {
    receipt: { id: 42, number: 'WR-000042', status: 'Delivered' },
    previousStatus: 'In Transit',
  },
});

/** A delivery's headers as the portal sends them, signed by the reference implementation. */
function signed(
  payload: string,
  { key = secret, at = new Date(), id = 'msg_2b6sTz0vqKx7m1R4' } = {},
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign(id, at, payload),
  };
}

beforeAll(() => mkdirSync(SCRATCH, { recursive: true }));

describe('the node:crypto example', () => {
  type Verify = (
    secret: string,
    headers: Record<string, string | undefined>,
    body: string,
    nowSeconds?: number,
  ) => unknown;
  let verifyWebhook: Verify;

  beforeAll(async () => {
    const file = path.join(SCRATCH, 'verify-webhook.mjs');
    writeFileSync(file, example("from 'node:crypto'"));
    ({ verifyWebhook } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      verifyWebhook: Verify;
    });
  });

  it('accepts a genuine delivery and answers its event', () => {
    expect(verifyWebhook(secret, signed(body), body)).toEqual(JSON.parse(body));
  });

  it('accepts a delivery signed with the old and the new secret while a secret changes', () => {
    const headers = signed(body);
    const old = signed(body, { key: otherSecret })['webhook-signature'];
    expect(
      verifyWebhook(
        secret,
        { ...headers, 'webhook-signature': `${old} ${headers['webhook-signature']}` },
        body,
      ),
    ).toEqual(JSON.parse(body));
  });

  it('refuses a changed body, another secret, another id, and a body parsed and written out again', () => {
    const headers = signed(body);
    expect(() => verifyWebhook(secret, headers, body.replace('Delivered', 'Lost'))).toThrow(
      'No matching signature',
    );
    expect(() => verifyWebhook(otherSecret, headers, body)).toThrow('No matching signature');
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_another' }, body)).toThrow(
      'No matching signature',
    );
    expect(() => verifyWebhook(secret, headers, JSON.stringify(JSON.parse(body), null, 2))).toThrow(
      'No matching signature',
    );
  });

  it('refuses a timestamp outside the 5-minute window, either way, and a delivery without its headers', () => {
    const at = new Date('2026-05-04T10:00:00Z');
    const headers = signed(body, { at });
    const sent = at.getTime() / 1000;
    expect(verifyWebhook(secret, headers, body, sent + 299)).toEqual(JSON.parse(body));
    expect(() => verifyWebhook(secret, headers, body, sent + 301)).toThrow('Timestamp outside');
    expect(() => verifyWebhook(secret, headers, body, sent - 301)).toThrow('Timestamp outside');
    expect(() =>
      verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body),
    ).toThrow('Not a signed delivery');
  });
});

describe('the standardwebhooks server example', () => {
  let server: ReturnType<typeof spawn>;
  let url: string;
  let printed = '';

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const file = path.join(SCRATCH, 'webhook-server.mjs');
    const code = example("from 'standardwebhooks'");
    expect(code).toContain('.listen(8080)');
    writeFileSync(
      file,
      code.replace(
        '.listen(8080)',
        `.listen(${port}, '127.0.0.1', () => console.log('listening'))`,
      ),
    );
    server = spawn(process.execPath, [file], {
      env: { ...process.env, PORTAL_WEBHOOK_SECRET: secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    server.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      server.stdout!.on('data', () => printed.includes('listening') && resolve());
      server.once('exit', (code) => reject(new Error(`the example exited with ${code}`)));
    });
    url = `http://127.0.0.1:${port}/portal-webhooks`;
  });

  afterAll(() => {
    server?.kill();
  });

  it('answers 204 to a genuine delivery and handles its event', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...signed(body) },
      body,
    });
    expect(response.status).toBe(204);
    await expect
      .poll(() => printed)
      .toContain('msg_2b6sTz0vqKx7m1R4 receipt.status_changed WR-000042 Delivered');
  });

  it('answers 400 to a changed body and to a stale delivery', async () => {
    const changed = await fetch(url, {
      method: 'POST',
      headers: signed(body),
      body: body.replace('Delivered', 'Lost'),
    });
    expect(changed.status).toBe(400);
    const stale = await fetch(url, {
      method: 'POST',
      headers: signed(body, { at: new Date(Date.now() - 10 * 60_000) }),
      body,
    });
    expect(stale.status).toBe(400);
  });
});
