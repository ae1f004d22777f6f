/**
 * A webhook delivery's outbox job, as it is stored and as it is sent: its payload names the receipt
 * and holds the envelope as JSON (no JSON string inside it), checked when the job runs; a job queued
 * by the release before, with its envelope as a string, is still sent as it was written.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJobs } from '~/server/services/outbox/outbox';
import { queueWebhookEvent } from '~/server/services/webhooks/webhook-delivery';
import type { ApiClient } from '../../support/api-client';
import { eventually, queryDatabase, signedInAdmin, waitForMirror } from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { stallLimit } from '../../support/test-pace';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

let portal: InProcessPortal;
let receiver: WebhookReceiver;
let admin: ApiClient;
let endpoint: { id: number; secret: string };
let receiptId: number;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  portal = await startInProcessPortal(
    {
      SANDBOX_RECEIPTS: '40',
      SYNC_INTERVAL_SECONDS: '86400',
      SANDBOX_CHANGE_SECONDS: '86400',
      // The receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: receiver.certFile!,
    },
    { webhookTimeoutMs: Math.ceil(stallLimit(4_000) / 1_000) * 1_000 },
  );
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  receiptId = (await admin.get('/api/receipts?limit=1')).body.data[0].id;
  const response = await admin.post('/api/webhooks', {
    url: `${receiver.url}/hooks`,
    events: ['receipt.status_changed'],
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  endpoint = response.body.data;
}, stallLimit(180_000));

afterAll(async () => {
  await portal?.stop();
  await receiver?.stop();
});

/** The request that carried this message, once the outbox has sent it. */
const requestOf = async (messageId: string) =>
  (
    await eventually(
      async () =>
        receiver.requests.filter((request) => request.headers['webhook-id'] === messageId),
      (requests) => requests.length > 0,
    )
  )[0]!;

const jobsOfEndpoint = () =>
  queryDatabase<{
    id: number;
    payload: string;
    doneAt: string | null;
    failedAt: string | null;
    lastError: string | null;
  }>(
    portal,
    `SELECT id, payload, doneAt, failedAt, lastError FROM outbox_jobs WHERE kind = 'webhook.delivery' AND payload LIKE '{"endpointId":${endpoint.id},%' ORDER BY id`,
  );

describe('a webhook delivery job', () => {
  it('when an event is queued, then its payload names the receipt and holds the envelope as JSON, and the request sends that envelope, signed', async () => {
    expect(
      await queueWebhookEvent(portal.portal, { type: 'receipt.status_changed', receiptId }),
    ).toBe(1);
    const payload = JSON.parse((await jobsOfEndpoint()).at(-1)!.payload);
    expect(payload).toEqual({
      endpointId: endpoint.id,
      messageId: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      receiptId,
      envelope: {
        type: 'receipt.status_changed',
        timestamp: expect.any(String),
        data: { receipt: expect.objectContaining({ id: receiptId }) },
      },
    });
    const request = await requestOf(payload.messageId);
    expect(request.body).toBe(JSON.stringify(payload.envelope));
    expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toEqual(
      payload.envelope,
    );
  });

  it('when a job of the release before waits in an upgraded database, then it is sent with the body it was written with', async () => {
    const body = JSON.stringify({
      type: 'receipt.status_changed',
      timestamp: new Date(portal.clock.now()).toISOString(),
      data: { receipt: { id: receiptId, number: 'as it was' }, previousStatus: 'Received' },
    });
    const messageId = 'msg_0123456789abcdef0123456789abcdef';
    await enqueueJobs(portal.portal, [
      {
        kind: 'webhook.delivery',
        payload: { endpointId: endpoint.id, messageId, type: 'receipt.status_changed', body },
      },
    ]);
    const request = await requestOf(messageId);
    expect(request.body).toBe(body);
    expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toEqual(
      JSON.parse(body),
    );
  });

  it('when a payload is of no shape a delivery takes, then the job is given up at once', async () => {
    await enqueueJobs(portal.portal, [
      {
        kind: 'webhook.delivery',
        payload: { endpointId: endpoint.id, messageId: 'msg_x', body: 42 },
      },
    ]);
    const [job] = await eventually(
      async () => (await jobsOfEndpoint()).slice(-1),
      ([last]) => last?.failedAt !== null,
    );
    expect(job!.lastError).toBe('Not a webhook delivery');
    expect(job!.doneAt).toBeNull();
  });
});
