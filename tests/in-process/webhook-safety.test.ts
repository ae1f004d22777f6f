/**
 * What webhook deliveries may not reach, on a portal with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE
 * unset: registration refuses http:// and local addresses it can see in the text, and at delivery time
 * every address is judged again, a name by what it resolves to, before any connection is made (the
 * receiver, on 127.0.0.1, never sees one). Also: the very first mirroring tells no endpoint of the
 * receipts it brings in; later syncs do.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSandboxPortal } from '~/server/services/demo';
import { WebhookSender } from '~/server/webhook-sender';
import type { ApiClient } from '../support/api-client';
import {
  eventually,
  expectError,
  queryDatabase,
  signedInAdmin,
  writeDatabase,
} from '../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { stallLimit } from '../support/test-pace';

let portal: InProcessPortal;
let receiver: WebhookReceiver;
let admin: ApiClient;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // The syncs are the test's to run: the first one must come after an endpoint is registered.
  portal = await startInProcessPortal(
    {
      WEBHOOK_CA_FILE: receiver.certFile!,
      SANDBOX_RECEIPTS: '60',
      SANDBOX_CONTROL: 'true',
      SANDBOX_CHANGE_SECONDS: '86400',
    },
    { background: false, webhookTimeoutMs: stallLimit(5_000) },
  );
  await prepareSandboxPortal({ ...portal.portal, sandbox: portal.portal.sandbox! });
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
  await receiver?.stop();
});

const PRIVATE = 'This address is on a local or private network; webhooks cannot be sent there';

describe('registration', () => {
  it.each([
    `https://127.0.0.1/in`,
    'https://10.0.0.1/in',
    'https://172.20.1.1/in',
    'https://192.168.1.1/in',
    'https://100.64.0.1/in',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/in',
    'https://[::ffff:127.0.0.1]/in',
    'https://[fd00:ec2::254]/in',
    'https://[fe80::1]/in',
    'https://0.0.0.0/in',
    'https://2130706433/in',
    'https://localhost/in',
    'https://api.localhost/in',
  ])('when %s is registered, then 400: a local or private address', async (url) => {
    expectError(
      await admin.post('/api/webhooks', { url, events: ['receipt.created'] }),
      400,
      'VALIDATION_ERROR',
      PRIVATE,
    );
  });

  it('when an http:// address is registered, then 400: https only', async () => {
    expectError(
      await admin.post('/api/webhooks', {
        url: `http://hooks.example.com/in`,
        events: ['receipt.created'],
      }),
      400,
      'VALIDATION_ERROR',
      'Webhook endpoints must use https://',
    );
  });
});

describe('the first mirroring and the syncs after it', () => {
  it('when the mirror is filled for the first time, then no receipt.created events are written; a later sync writes its events', async () => {
    const created = await admin.post('/api/webhooks', {
      url: 'https://hooks.invalid/in',
      events: ['receipt.created', 'receipt.status_changed'],
    });
    expect(created.status).toBe(201);
    const jobs = async () =>
      Number(
        (
          await queryDatabase<{ jobs: number }>(
            portal,
            "SELECT COUNT(*) AS jobs FROM outbox_jobs WHERE kind = 'webhook.delivery'",
          )
        )[0]!.jobs,
      );
    await portal.portal.syncRuns.syncReceipts();
    expect(
      Number(
        (
          await queryDatabase<{ receipts: number }>(
            portal,
            'SELECT COUNT(*) AS receipts FROM receipts',
          )
        )[0]!.receipts,
      ),
    ).toBe(60);
    expect(await jobs()).toBe(0);

    const { added } = (await admin.post('/sandbox/control/advance')).body as { added: number[] };
    await portal.portal.syncRuns.syncReceipts();
    const payloads = (
      await queryDatabase<{ payload: string }>(
        portal,
        "SELECT payload FROM outbox_jobs WHERE kind = 'webhook.delivery'",
      )
    ).map(
      (row) =>
        JSON.parse(row.payload) as {
          envelope: { type: string; data: { receipt: { id: number } } };
        },
    );
    const createdIds = payloads
      .filter(({ envelope }) => envelope.type === 'receipt.created')
      .map(({ envelope }) => envelope.data.receipt.id);
    expect(createdIds.sort()).toEqual([...added].sort());
    expect(payloads.some(({ envelope }) => envelope.type === 'receipt.status_changed')).toBe(true);
    expect((await admin.delete(`/api/webhooks/${created.body.data.id}`)).status).toBe(200);
  });
});

describe('delivery', () => {
  /** An endpoint registered at an address allowed, then pointed elsewhere behind the portal's back (as a portal that once allowed it). */
  async function endpointAt(url: string): Promise<number> {
    const created = await admin.post('/api/webhooks', {
      url: 'https://hooks.example.com/in',
      events: ['prealert.matched'],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect(
      await writeDatabase(portal, 'UPDATE webhook_endpoints SET url = ? WHERE id = ?', [url, id]),
    ).toBe(1);
    return id;
  }

  it.each([
    [
      'http:// without WEBHOOK_ALLOW_HTTP',
      () => `http://127.0.0.1:${receiver.port}/in`,
      /^Refused: http:\/\/ is not allowed, only https:\/\/$/,
      { code: 'scheme-refused', scheme: 'http:' },
    ],
    [
      'https://127.0.0.1',
      () => `https://127.0.0.1:${receiver.port}/in`,
      /^Refused: 127\.0\.0\.1 is a loopback address$/,
      { code: 'address-refused', host: '127.0.0.1', kind: 'loopback' },
    ],
    [
      'https://10.0.0.1',
      () => 'https://10.0.0.1/in',
      /^Refused: 10\.0\.0\.1 is a private address$/,
      { code: 'address-refused', host: '10.0.0.1', kind: 'private' },
    ],
    [
      'the metadata address',
      () => 'https://169.254.169.254/latest/meta-data',
      /^Refused: 169\.254\.169\.254 is a metadata address$/,
      { code: 'address-refused', host: '169.254.169.254', kind: 'metadata' },
    ],
    [
      '[::1]',
      () => `https://[::1]:${receiver.port}/in`,
      /^Refused: \[::1\] is a loopback address$/,
      { code: 'address-refused', host: '[::1]', kind: 'loopback' },
    ],
    [
      '::ffff:127.0.0.1',
      () => `https://[::ffff:127.0.0.1]:${receiver.port}/in`,
      /^Refused: \[::ffff:7f00:1\] is a loopback address$/,
      { code: 'address-refused', host: '[::ffff:7f00:1]', kind: 'loopback' },
    ],
    [
      'a name that resolves to 127.0.0.1 (localhost)',
      () => `https://localhost:${receiver.port}/in`,
      /^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/,
      {
        code: 'resolved-address-refused',
        host: 'localhost',
        address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
        kind: 'loopback',
      },
    ],
  ])(
    'when the address is %s, then the attempt is refused before any connection, logged with its code, and not retried',
    async (_case, url, error, failure) => {
      const connections = receiver.connections;
      const id = await endpointAt(url());
      const sent = await admin.post(`/api/webhooks/${id}/test`);
      expect(sent.status).toBe(202);
      const [attempt] = await eventually(
        async () =>
          (await admin.get(`/api/webhooks/${id}/deliveries`)).body.data as Array<
            Record<string, any>
          >,
        (attempts) => attempts.length === 1,
      );
      expect(attempt).toMatchObject({
        succeeded: false,
        statusCode: null,
        answer: '',
        messageId: sent.body.data.messageId,
      });
      expect(attempt!.error).toMatch(error);
      expect(attempt!.failure).toEqual(failure);
      const [job] = await queryDatabase<{ failedAt: string | null; attempts: number }>(
        portal,
        "SELECT failedAt, attempts FROM outbox_jobs WHERE kind = 'webhook.delivery' ORDER BY id DESC LIMIT 1",
      );
      expect(job).toMatchObject({ attempts: 1, failedAt: expect.any(String) });
      expect(receiver.connections).toBe(connections);
      expect(receiver.requests).toEqual([]);
      expect((await admin.delete(`/api/webhooks/${id}`)).status).toBe(200);
    },
  );

  it('when a name resolves to a loopback address, then the lookup of the connection itself refuses it; allowed, the same request goes through', async () => {
    const post = {
      url: `https://localhost:${receiver.port}/direct`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    };
    const extraCa = readFileSync(receiver.certFile!, 'utf8');
    const refused = await new WebhookSender({
      allowHttp: false,
      allowPrivate: false,
      extraCa,
    }).send(post);
    expect(refused).toMatchObject({
      statusCode: null,
      failure: { code: 'resolved-address-refused', host: 'localhost', kind: 'loopback' },
    });
    expect(receiver.requests).toEqual([]);

    const allowed = await new WebhookSender({ allowHttp: false, allowPrivate: true, extraCa }).send(
      post,
    );
    expect(allowed).toMatchObject({ statusCode: 200, failure: null, answer: 'ok' });
    expect(receiver.requests.map((request) => request.path)).toEqual(['/direct']);

    // Without the receiver's certificate among the trusted ones, its self-signed certificate is refused.
    const untrusted = await new WebhookSender({
      allowHttp: false,
      allowPrivate: true,
      extraCa: null,
    }).send(post);
    expect(untrusted).toMatchObject({
      statusCode: null,
      failure: { code: 'connection-failed', systemCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
    expect(receiver.requests).toHaveLength(1);
  });
});
