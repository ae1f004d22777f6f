/**
 * Webhooks end to end, against a real HTTPS receiver with a self-signed certificate the portal trusts
 * through WEBHOOK_CA_FILE: the API (validation, ownership, the secret shown once, the limit, the log
 * capped at 100), signatures checked with the standardwebhooks library's own verifier, one webhook-id
 * across retries, the events of a sync in each owner's scope with the receipt as the API shows it,
 * pre-alert events, no redirects, the time limit and the answer cap, then with the portal's clock
 * moved: the 24-hour give-up and the endpoint disabled after three failing days, its owner e-mailed.
 */
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { queueWebhookEvent } from '~/server/services/webhooks/webhook-delivery';
import { okEnvelope } from '~/shared/envelope';
import { webhookDeliverySchema } from '~/shared/webhooks';
import { ApiClient } from '../../support/api-client';
import {
  allKeys,
  assignConsignees,
  createUser,
  databaseText,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
  type TestUser,
} from '../../support/api-steps';
import { queriesToBusyConnections } from '../../support/busy-connections';
import { holdRowLock } from '../../support/held-transaction';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';
import {
  startWebhookReceiver,
  type Answer,
  type ReceivedRequest,
  type WebhookReceiver,
} from '../../support/webhook-receiver';
import { stallLimit } from '../../support/test-pace';

// Long enough that a delivery to the receiver here is never cut short on a busy machine.
const TIMEOUT_MS = Math.ceil(stallLimit(4_000) / 1_000) * 1_000;
const HOUR_MS = 3_600_000;

let portal: InProcessPortal;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
let admin: ApiClient;
let customer: TestUser & { client: ApiClient };
let otherCustomer: TestUser & { client: ApiClient };
/** The consignees the customer is assigned: half of them. */
let customerConsignees: Set<string>;

/** How the receiver answers each path: a queue of answers, then 200 "ok" (or the path's `always`). */
const plans = new Map<string, { next: Answer[]; always?: Answer }>();
const plan = (path: string, next: Answer[], always?: Answer) => plans.set(path, { next, always });

function answerByPath(response: ServerResponse, request: ReceivedRequest): void {
  const route = plans.get(request.path);
  const answer = route?.next.shift() ?? route?.always ?? { status: 200, body: 'ok' };
  if (typeof answer === 'function') return answer(response, request);
  response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
  response.end(answer.body ?? '');
}

const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

interface Created {
  id: number;
  url: string;
  secret: string;
  events: string[];
}

async function register(client: ApiClient, path: string, events: string[]): Promise<Created> {
  const response = await client.post('/api/webhooks', { url: `${receiver.url}${path}`, events });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

/** The delivery log; its answer is exactly what the route documents (the schema of GET /api/openapi.json). */
async function deliveries(
  client: ApiClient,
  id: number,
  headers: Record<string, string> = {},
): Promise<Array<Record<string, any>>> {
  const response = await client.get(`/api/webhooks/${id}/deliveries`, { headers });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const parsed = okEnvelope(z.array(webhookDeliverySchema)).safeParse(response.body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toEqual(response.body);
  return response.body.data;
}

const IN_DUTCH = { 'Accept-Language': 'nl' };

/** Where an outbox job is a delivery to this endpoint: a sync the moved clock started may have queued others meanwhile. */
const ofEndpoint = (endpointId: number) => `payload LIKE '{"endpointId":${endpointId},%'`;

const waitForAttempts = (client: ApiClient, id: number, count: number) =>
  eventually(
    () => deliveries(client, id),
    (attempts) => attempts.length >= count,
  );

/**
 * Runs every job due now, as the outbox's worker would, until none is left. The worker's own poll may
 * claim a due job first (then this process's run finds none to claim): its run is waited for too.
 */
async function runDueJobs(): Promise<void> {
  const { outbox } = portal.portal;
  do await outbox.idle();
  while ((await outbox.runDueJobs()) > 0);
  await outbox.idle();
}

async function customerWith(name: string, consigneeIds: number[]) {
  const user = await createUser(admin, name);
  if (consigneeIds.length > 0) await assignConsignees(admin, user.id, consigneeIds);
  return { ...user, client: await signIn(portal, user) };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startWebhookReceiver();
  receiver.fallback = answerByPath;
  portal = await startInProcessPortal(
    {
      SMTP_URL: smtp.url,
      SANDBOX_RECEIPTS: '150',
      SANDBOX_CONTROL: 'true',
      SYNC_INTERVAL_SECONDS: '3600',
      SANDBOX_CHANGE_SECONDS: '86400',
      // The receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: receiver.certFile!,
      // The clock moves by days at the end; the sessions of the test's clients must outlast that.
      SESSION_IDLE_MINUTES: '100000',
      SESSION_MAX_HOURS: '10000',
    },
    { webhookTimeoutMs: TIMEOUT_MS },
  );
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  expect((await admin.post('/api/consignees/import')).status).toBe(200);
  const consignees = (await admin.get('/api/consignees')).body.data as Array<{
    id: number;
    name: string;
  }>;
  const half = consignees.filter((_, index) => index % 2 === 0);
  customerConsignees = new Set(half.map((consignee) => consignee.name));
  customer = await customerWith(
    'hookklant',
    half.map((consignee) => consignee.id),
  );
  otherCustomer = await customerWith('andereklant', []);
}, stallLimit(180_000));

afterAll(async () => {
  await portal?.stop();
  await receiver?.stop();
  await smtp?.stop();
});

describe('the webhooks API', () => {
  it('when an endpoint is registered, then the answer holds its whsec_ secret once; no later answer does, and the database holds it only encrypted', async () => {
    const response = await customer.client.post('/api/webhooks', {
      url: `${receiver.url}/first`,
      events: ['receipt.status_changed', 'receipt.created'],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ success: true, message: 'Webhook endpoint added' });
    const created = response.body.data;
    expect(created).toEqual({
      id: expect.any(Number),
      url: `${receiver.url}/first`,
      // In the catalogue's order, whatever the order sent.
      events: ['receipt.created', 'receipt.status_changed'],
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      lastSuccessAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const list = await customer.client.get('/api/webhooks');
    const one = await customer.client.get(`/api/webhooks/${created.id}`);
    expect(list.body.data).toEqual(
      [{ ...created, secret: undefined }].map(({ secret: _secret, ...rest }) => rest),
    );
    expect(one.body.data).toEqual(list.body.data[0]);
    expect([...allKeys(list.body), ...allKeys(one.body)]).not.toContain('secret');
    expect(await databaseText(portal)).not.toContain(created.secret.slice('whsec_'.length, 30));

    const [audit] = await queryDatabase<{
      action: string;
      target: string;
      detail: string;
      actorName: string;
    }>(
      portal,
      "SELECT action, target, detail, actorName FROM audit_entries WHERE action = 'webhook.created' ORDER BY id DESC LIMIT 1",
    );
    expect(audit).toEqual({
      action: 'webhook.created',
      target: `webhook ${created.id}`,
      detail: JSON.stringify({ origin: receiver.url }),
      actorName: customer.username,
    });
    expect((await customer.client.delete(`/api/webhooks/${created.id}`)).status).toBe(200);
  });

  it.each([
    ['nothing is sent', {}, "Enter the endpoint's address"],
    [
      'the address is empty',
      { url: '', events: ['receipt.created'] },
      "Enter the endpoint's address",
    ],
    [
      'the address has no scheme',
      { url: 'hooks.example.com/in', events: ['receipt.created'] },
      'Enter a full address starting with https://',
    ],
    [
      'the address is ftp://',
      { url: 'ftp://hooks.example.com/in', events: ['receipt.created'] },
      'Enter a full address starting with https://',
    ],
    [
      'the address is http:// (WEBHOOK_ALLOW_HTTP unset)',
      { url: 'http://hooks.example.com/in', events: ['receipt.created'] },
      'Webhook endpoints must use https://',
    ],
    [
      'the address holds credentials',
      { url: 'https://user:secret@hooks.example.com/in', events: ['receipt.created'] },
      'Leave the user name and password out of the address',
    ],
    [
      'the address is over 2000 characters',
      { url: `https://hooks.example.com/${'a'.repeat(2000)}`, events: ['receipt.created'] },
      'The address may be at most 2000 characters long',
    ],
    [
      'no event is chosen',
      { url: 'https://hooks.example.com/in', events: [] },
      'Choose at least one event',
    ],
    [
      'the events are no list',
      { url: 'https://hooks.example.com/in', events: 'receipt.created' },
      'Choose at least one event',
    ],
    [
      'the events are missing',
      { url: 'https://hooks.example.com/in' },
      'Choose at least one event',
    ],
    [
      'an event is unknown',
      { url: 'https://hooks.example.com/in', events: ['receipt.deleted'] },
      'Unknown event; choose from receipt.created, receipt.status_changed, prealert.matched',
    ],
  ])('when %s, then 400 with "%s" and nothing is stored', async (_case, payload, message) => {
    const response = await customer.client.post('/api/webhooks', payload);
    expectError(response, 400, 'VALIDATION_ERROR', message);
    expect((await customer.client.get('/api/webhooks')).body.data).toEqual([]);
  });

  it('when the refusal is asked for in Dutch, then it is in Dutch and names its field', async () => {
    const response = await customer.client.post(
      '/api/webhooks',
      { url: 'http://hooks.example.com/in', events: ['receipt.created'] },
      { headers: { 'Accept-Language': 'nl' } },
    );
    expectError(response, 400, 'VALIDATION_ERROR', 'Webhook-endpoints moeten https:// gebruiken');
    expect(response.body.details).toEqual([
      { field: 'url', message: 'Webhook-endpoints moeten https:// gebruiken' },
    ]);
  });

  it("when anyone else asks for an endpoint by its id, then 404, as for one that does not exist; an admin lists everyone's with ?scope=all, a customer may not", async () => {
    const own = await register(customer.client, '/own', ['receipt.created']);
    for (const client of [otherCustomer.client, admin]) {
      expectError(
        await client.get(`/api/webhooks/${own.id}`),
        404,
        'NOT_FOUND',
        'That webhook endpoint was not found.',
      );
      expectError(
        await client.put(`/api/webhooks/${own.id}`, { enabled: false }),
        404,
        'NOT_FOUND',
      );
      expectError(await client.delete(`/api/webhooks/${own.id}`), 404, 'NOT_FOUND');
      expectError(await client.post(`/api/webhooks/${own.id}/test`), 404, 'NOT_FOUND');
      expectError(await client.get(`/api/webhooks/${own.id}/deliveries`), 404, 'NOT_FOUND');
      expect((await client.get('/api/webhooks')).body.data).toEqual([]);
    }
    expectError(await customer.client.get('/api/webhooks/abc'), 404, 'NOT_FOUND');
    expectError(await new ApiClient(portal).get('/api/webhooks'), 401, 'AUTHENTICATION_ERROR');
    // Signed out, the query is not read: no hint of what it accepts.
    expectError(
      await new ApiClient(portal).get('/api/webhooks?scope=everyone'),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(
      await new ApiClient(portal).get('/api/webhooks?scope=all'),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(
      await new ApiClient(portal).post('/api/webhooks', {
        url: `${receiver.url}/x`,
        events: ['receipt.created'],
      }),
      401,
      'AUTHENTICATION_ERROR',
    );

    const all = await admin.get('/api/webhooks?scope=all');
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      expect.objectContaining({
        id: own.id,
        url: own.url,
        owner: { id: customer.id, username: customer.username },
      }),
    ]);
    expect(allKeys(all.body)).not.toContain('secret');
    expectError(await customer.client.get('/api/webhooks?scope=all'), 403, 'FORBIDDEN');
    expectError(
      await admin.get('/api/webhooks?scope=everyone'),
      400,
      'VALIDATION_ERROR',
      'scope must be own or all',
    );
    expect((await customer.client.get(`/api/webhooks/${own.id}`)).status).toBe(200);
  });

  it('when an endpoint is changed, turned off and on again, then each answer says so; a change without anything to change is refused', async () => {
    const [own] = (await customer.client.get('/api/webhooks')).body.data as Created[];
    const changed = await customer.client.put(`/api/webhooks/${own!.id}`, {
      events: ['prealert.matched', 'receipt.status_changed'],
    });
    expect(changed.body).toMatchObject({
      success: true,
      message: 'Webhook endpoint saved',
      data: { events: ['receipt.status_changed', 'prealert.matched'] },
    });
    const off = await customer.client.put(`/api/webhooks/${own!.id}`, { enabled: false });
    expect(off.body.data).toMatchObject({
      enabled: false,
      disabledReason: 'owner',
      disabledAt: expect.any(String),
    });
    const on = await customer.client.put(`/api/webhooks/${own!.id}`, { enabled: true });
    expect(on.body.data).toMatchObject({
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
    });
    // Where deliveries go and what they carry is audited; turning the endpoint off and on is not.
    const audits = await queryDatabase<{ action: string; target: string; actorName: string }>(
      portal,
      `SELECT "action", "target", "actorName" FROM "audit_entries" WHERE "action" = 'webhook.updated' AND "target" = 'webhook ${own!.id}'`,
    );
    expect(audits).toEqual([
      { action: 'webhook.updated', target: `webhook ${own!.id}`, actorName: customer.username },
    ]);
    expectError(
      await customer.client.put(`/api/webhooks/${own!.id}`, {}),
      400,
      'VALIDATION_ERROR',
      'Send the address, the events or whether the endpoint is on',
    );
    expectError(
      await customer.client.put(`/api/webhooks/${own!.id}`, { enabled: 'yes' }),
      400,
      'VALIDATION_ERROR',
      'Enabled must be true or false',
    );
    expectError(
      await customer.client.put(`/api/webhooks/${own!.id}`, { url: 'http://hooks.example.com/' }),
      400,
      'VALIDATION_ERROR',
      'Webhook endpoints must use https://',
    );
    expect((await customer.client.get(`/api/webhooks/${own!.id}`)).body.data.url).toBe(own!.url);
  });

  it('when a user has 10 endpoints, then an 11th is refused with 409; deleting one makes room, and the deletion is in the audit trail', async () => {
    const existing = ((await customer.client.get('/api/webhooks')).body.data as Created[]).length;
    for (let n = existing; n < 10; n++)
      await register(customer.client, `/many-${n}`, ['receipt.created']);
    expectError(
      await customer.client.post('/api/webhooks', {
        url: `${receiver.url}/eleventh`,
        events: ['receipt.created'],
      }),
      409,
      'CONFLICT',
      'You can have at most 10 webhook endpoints; delete one first.',
    );
    const endpoints = (await customer.client.get('/api/webhooks')).body.data as Created[];
    expect(endpoints).toHaveLength(10);
    for (const endpoint of endpoints) {
      const deleted = await customer.client.delete(`/api/webhooks/${endpoint.id}`);
      expect(deleted.body).toEqual({
        success: true,
        data: null,
        message: 'Webhook endpoint deleted',
      });
    }
    expectError(await customer.client.get(`/api/webhooks/${endpoints[0]!.id}`), 404, 'NOT_FOUND');
    const [{ deletions }] = (await queryDatabase<{ deletions: number }>(
      portal,
      "SELECT COUNT(*) AS deletions FROM audit_entries WHERE action = 'webhook.deleted'",
    )) as [{ deletions: number }];
    expect(Number(deletions)).toBeGreaterThanOrEqual(10);
  });

  it('when two registrations race for the last of the 10 places, then one gets it and the other a 409, on PostgreSQL too', async () => {
    const racer = await customerWith('hookracer', []);
    for (let n = 0; n < 9; n++) await register(racer.client, `/race-${n}`, ['receipt.created']);
    // Another request's lock on the owner: both registrations meet it, then go on together.
    const held = await holdRowLock(portal, 'users', racer.id);
    const racing = [0, 1].map((n) =>
      racer.client.post('/api/webhooks', {
        url: `${receiver.url}/race-last-${n}`,
        events: ['receipt.created'],
      }),
    );
    await held.untilBlocked(2, racing);
    await held.release();
    expect((await Promise.all(racing)).map((response) => response.status).sort()).toEqual([
      201, 409,
    ]);
    expect((await racer.client.get('/api/webhooks')).body.data).toHaveLength(10);
  });
});

describe('deliveries', () => {
  it('when a test event is sent, then it arrives signed as Standard Webhooks says, the verifier accepts it with the secret (and only with it), and the log shows the attempt', async () => {
    const endpoint = await register(customer.client, '/test-event', ['receipt.created']);
    const sent = await customer.client.post(`/api/webhooks/${endpoint.id}/test`);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({
      success: true,
      message: 'Test event sent; its attempt appears in the delivery log',
    });
    const { messageId } = sent.body.data as { messageId: string };
    expect(messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    const [request] = await eventually(
      () => requestsTo('/test-event'),
      (requests) => requests.length === 1,
    );
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(messageId);
    expect(
      Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000),
    ).toBeLessThan(60);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const event = new Webhook(endpoint.secret).verify(request!.body, request!.headers);
    expect(event).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { endpointId: endpoint.id },
    });
    const impostor = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => new Webhook(impostor).verify(request!.body, request!.headers)).toThrow(
      'No matching signature found',
    );
    expect(() =>
      new Webhook(endpoint.secret).verify(`${request!.body} `, request!.headers),
    ).toThrow();

    const [attempt] = await waitForAttempts(customer.client, endpoint.id, 1);
    expect(attempt).toEqual({
      id: expect.any(Number),
      messageId,
      eventType: 'webhook.test',
      attempt: 1,
      at: expect.any(String),
      durationMs: expect.any(Number),
      succeeded: true,
      statusCode: 200,
      error: null,
      failure: null,
      answer: 'ok',
    });
    expect((await customer.client.get(`/api/webhooks/${endpoint.id}`)).body.data).toMatchObject({
      lastSuccessAt: expect.any(String),
      failingSince: null,
    });
    await customer.client.delete(`/api/webhooks/${endpoint.id}`);
  });

  it('when the receiver answers 500, then the delivery is retried after a wait with the same webhook-id and body, each attempt signed, until a 200; a pre-alert event carries the receipt and the pre-alert', async () => {
    const endpoint = await register(admin, '/retry', ['prealert.matched']);
    plan('/retry', [{ status: 500, body: 'receiver broke' }]);
    const [receipt] = (await admin.get('/api/receipts?limit=1')).body.data as Array<{ id: number }>;
    const prealert = { id: 7, reference: 'PA-7', expectedPieces: 3 };
    const queued = await portal.portal.db.sequelize.transaction((transaction) =>
      queueWebhookEvent(
        portal.portal,
        { type: 'prealert.matched', receiptId: receipt!.id, prealert },
        transaction,
      ),
    );
    expect(queued).toBe(1);
    const [failed] = await waitForAttempts(admin, endpoint.id, 1);
    expect(failed).toMatchObject({
      attempt: 1,
      succeeded: false,
      statusCode: 500,
      error: 'HTTP 500',
      failure: { code: 'http-status', status: 500 },
      answer: 'receiver broke',
      eventType: 'prealert.matched',
    });
    const [failedInDutch] = await deliveries(admin, endpoint.id, IN_DUTCH);
    expect(failedInDutch).toMatchObject({
      error: 'HTTP-status 500',
      failure: { code: 'http-status', status: 500 },
    });
    expect((await admin.get(`/api/webhooks/${endpoint.id}`)).body.data.failingSince).not.toBeNull();

    // Not again before the first wait (MAIL_RETRY_SECONDS, 30 s) has passed.
    await runDueJobs();
    expect(requestsTo('/retry')).toHaveLength(1);
    portal.clock.advance(31_000);
    await runDueJobs();
    const attempts = await waitForAttempts(admin, endpoint.id, 2);
    expect(
      attempts.map((attempt) => [attempt.attempt, attempt.succeeded, attempt.statusCode]),
    ).toEqual([
      [2, true, 200],
      [1, false, 500],
    ]);
    const [first, second] = requestsTo('/retry');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['webhook-id']).toBe(failed!.messageId);
    expect(second!.body).toBe(first!.body);
    expect(
      Number(second!.headers['webhook-timestamp']) - Number(first!.headers['webhook-timestamp']),
    ).toBeGreaterThanOrEqual(30);
    for (const request of [first!, second!])
      expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toBeTruthy();
    const event = JSON.parse(second!.body);
    expect(event).toEqual({
      type: 'prealert.matched',
      timestamp: expect.any(String),
      data: { receipt: (await admin.get(`/api/receipts/${receipt!.id}`)).body.data, prealert },
    });
    expect((await admin.get(`/api/webhooks/${endpoint.id}`)).body.data).toMatchObject({
      failingSince: null,
      lastSuccessAt: expect.any(String),
    });
    await admin.delete(`/api/webhooks/${endpoint.id}`);
  });

  it("when a sync changes receipts, then each endpoint is told of those its owner sees (the customer's only of their consignees'), with the receipt as the API shows that owner", async () => {
    const adminEndpoint = await register(admin, '/sync-admin', [
      'receipt.created',
      'receipt.status_changed',
    ]);
    const customerEndpoint = await register(customer.client, '/sync-customer', [
      'receipt.created',
      'receipt.status_changed',
    ]);
    const kinds = () =>
      new Set(requestsTo('/sync-admin').map((request) => JSON.parse(request.body).type as string));
    const outOfScope = () =>
      requestsTo('/sync-admin').filter(
        (request) => !customerConsignees.has(JSON.parse(request.body).data.receipt.consigneeName),
      );
    const inScope = () =>
      requestsTo('/sync-admin').filter((request) =>
        customerConsignees.has(JSON.parse(request.body).data.receipt.consigneeName),
      );
    // The sync queues the events in its own transaction: on PostgreSQL, in one query at a time.
    const busy = await queriesToBusyConnections(async () => {
      for (
        let round = 0;
        round < 12 && (kinds().size < 2 || outOfScope().length === 0 || inScope().length === 0);
        round++
      ) {
        expect((await admin.post('/sandbox/control/advance')).status).toBe(200);
        await portal.portal.syncRuns.syncReceipts();
        await runDueJobs();
      }
    });
    expect(busy, 'queries sent to a connection busy with another').toBe(0);
    expect([...kinds()].sort()).toEqual(['receipt.created', 'receipt.status_changed']);
    const events = (path: string) =>
      requestsTo(path).map((request) => ({
        ...(JSON.parse(request.body) as { type: string; data: Record<string, any> }),
        request,
      }));
    const adminEvents = events('/sync-admin');
    const customerEvents = events('/sync-customer');
    const key = (event: { type: string; data: Record<string, any> }) =>
      `${event.type} ${event.data.receipt.id} ${event.data.receipt.status}`;
    expect(customerEvents.map(key).sort()).toEqual(
      adminEvents
        .filter((event) => customerConsignees.has(event.data.receipt.consigneeName))
        .map(key)
        .sort(),
    );
    expect(customerEvents.length).toBeGreaterThan(0);
    expect(customerEvents.length).toBeLessThan(adminEvents.length);
    for (const { request } of customerEvents)
      expect(
        new Webhook(customerEndpoint.secret).verify(request.body, request.headers),
      ).toBeTruthy();

    // A receipt told of once shows as the API shows it now: the same for the admin and for the customer who sees it.
    const once = (list: typeof adminEvents) =>
      list.filter(
        (event) =>
          list.filter((other) => other.data.receipt.id === event.data.receipt.id).length === 1,
      );
    for (const event of once(customerEvents)) {
      expect(event.data.receipt).toEqual(
        (await customer.client.get(`/api/receipts/${event.data.receipt.id}`)).body.data,
      );
    }
    for (const event of once(adminEvents).filter(
      (each) => !customerConsignees.has(each.data.receipt.consigneeName),
    )) {
      expect(event.data.receipt).toEqual(
        (await admin.get(`/api/receipts/${event.data.receipt.id}`)).body.data,
      );
      expectError(
        await customer.client.get(`/api/receipts/${event.data.receipt.id}`),
        404,
        'NOT_FOUND',
      );
    }
    // A status change says what the status was; its history ends with the change.
    for (const event of adminEvents.filter((each) => each.type === 'receipt.status_changed')) {
      const statuses = (event.data.receipt.history as Array<{ status: string }>).map(
        (entry) => entry.status,
      );
      expect(statuses.at(-1)).toBe(event.data.receipt.status);
      expect(event.data.previousStatus).toBe(statuses.at(-2));
    }
    for (const event of adminEvents.filter((each) => each.type === 'receipt.created'))
      expect(event.data.previousStatus).toBeUndefined();
    await admin.delete(`/api/webhooks/${adminEndpoint.id}`);
    await customer.client.delete(`/api/webhooks/${customerEndpoint.id}`);
  });

  it("when a pre-alert is matched to a receipt outside a customer's consignees, then the customer's endpoint is not told; one the customer sees, it is", async () => {
    const endpoint = await register(customer.client, '/prealert-scope', ['prealert.matched']);
    const receipts = (await admin.get('/api/receipts?limit=100')).body.data as Array<{
      id: number;
      consigneeName: string;
    }>;
    const theirs = receipts.find((receipt) => customerConsignees.has(receipt.consigneeName))!;
    const others = receipts.find((receipt) => !customerConsignees.has(receipt.consigneeName))!;
    expect(
      await queueWebhookEvent(portal.portal, { type: 'prealert.matched', receiptId: others.id }),
    ).toBe(0);
    expect(
      await queueWebhookEvent(portal.portal, { type: 'prealert.matched', receiptId: theirs.id }),
    ).toBe(1);
    const [request] = await eventually(
      () => requestsTo('/prealert-scope'),
      (requests) => requests.length === 1,
    );
    expect(JSON.parse(request!.body).data).toEqual({
      receipt: (await customer.client.get(`/api/receipts/${theirs.id}`)).body.data,
    });
    await runDueJobs();
    expect(requestsTo('/prealert-scope')).toHaveLength(1);
    await customer.client.delete(`/api/webhooks/${endpoint.id}`);
  });

  it('when the receiver answers with a redirect, then it is not followed and the attempt fails', async () => {
    const endpoint = await register(customer.client, '/moved', ['receipt.created']);
    plan('/moved', [{ status: 302, headers: { location: `${receiver.url}/elsewhere` } }]);
    await customer.client.post(`/api/webhooks/${endpoint.id}/test`);
    const [attempt] = await waitForAttempts(customer.client, endpoint.id, 1);
    const failure = { code: 'redirect', status: 302, location: `${receiver.url}/elsewhere` };
    expect(attempt).toMatchObject({
      succeeded: false,
      statusCode: 302,
      error: `Redirect to ${receiver.url}/elsewhere not followed`,
      failure,
    });
    const [inDutch] = await deliveries(customer.client, endpoint.id, IN_DUTCH);
    expect(inDutch).toMatchObject({
      error: `Doorverwijzing naar ${receiver.url}/elsewhere niet gevolgd`,
      failure,
    });
    expect(requestsTo('/elsewhere')).toEqual([]);
    await customer.client.delete(`/api/webhooks/${endpoint.id}`);
  });

  it("when the receiver cannot be reached, then the attempt fails with the system code, said in the reader's language", async () => {
    const created = await customer.client.post('/api/webhooks', {
      url: 'https://127.0.0.1:1/closed',
      events: ['receipt.created'],
    });
    expect(created.status).toBe(201);
    await customer.client.post(`/api/webhooks/${created.body.data.id}/test`);
    const [attempt] = await waitForAttempts(customer.client, created.body.data.id, 1);
    const failure = { code: 'connection-failed', systemCode: 'ECONNREFUSED' };
    expect(attempt).toMatchObject({
      succeeded: false,
      statusCode: null,
      error: 'Connection failed (ECONNREFUSED)',
      failure,
      answer: '',
    });
    expect((await deliveries(customer.client, created.body.data.id, IN_DUTCH))[0]).toMatchObject({
      error: 'Verbinding mislukt (ECONNREFUSED)',
      failure,
    });
    await customer.client.delete(`/api/webhooks/${created.body.data.id}`);
  });

  it('when an attempt was logged as English text before the codes, then the log shows that text as it is, in every language, with no code', async () => {
    const endpoint = await register(customer.client, '/before-codes', ['receipt.created']);
    const legacy = 'connect ECONNREFUSED 203.0.113.9:443';
    await portal.portal.db.models.WebhookDelivery.create({
      endpointId: endpoint.id,
      messageId: 'msg_00000000000000000000000000000001',
      eventType: 'receipt.created',
      attempt: 1,
      at: new Date(portal.clock.now()),
      durationMs: 12,
      succeeded: false,
      statusCode: null,
      error: legacy,
      answer: '',
    });
    for (const headers of [{}, IN_DUTCH]) {
      const [attempt] = await deliveries(customer.client, endpoint.id, headers);
      expect(attempt).toMatchObject({ succeeded: false, error: legacy, failure: null });
    }
    await customer.client.delete(`/api/webhooks/${endpoint.id}`);
  });

  it('when the receiver does not answer in time, then the attempt ends at the time limit; a long answer is read only up to 64 KB, and kept in part', async () => {
    const endpoint = await register(customer.client, '/slow', ['receipt.created']);
    // Never answers.
    plan('/slow', [() => {}]);
    await customer.client.post(`/api/webhooks/${endpoint.id}/test`);
    const [timedOut] = await waitForAttempts(customer.client, endpoint.id, 1);
    expect(timedOut).toMatchObject({
      succeeded: false,
      statusCode: null,
      error: `Timed out after ${TIMEOUT_MS / 1000} s`,
      failure: { code: 'timeout', seconds: TIMEOUT_MS / 1000 },
      answer: '',
    });
    expect((await deliveries(customer.client, endpoint.id, IN_DUTCH))[0]).toMatchObject({
      error: `Geen antwoord binnen ${TIMEOUT_MS / 1000} s`,
    });
    expect(timedOut!.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);

    // 70 KB and then the answer never ends: the attempt is judged once 64 KB are in, well before the time limit.
    plan('/slow', [
      (response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('x'.repeat(70 * 1024));
      },
    ]);
    await customer.client.post(`/api/webhooks/${endpoint.id}/test`);
    const [long] = await waitForAttempts(customer.client, endpoint.id, 2);
    expect(long).toMatchObject({
      succeeded: true,
      statusCode: 200,
      error: null,
      answer: 'x'.repeat(500),
    });
    expect(long!.durationMs).toBeLessThan(TIMEOUT_MS);

    // A binary answer is kept without its NUL bytes (PostgreSQL's text refuses them).
    plan('/slow', [{ status: 200, body: 'bin\u0000ary' }]);
    await customer.client.post(`/api/webhooks/${endpoint.id}/test`);
    const [binary] = await waitForAttempts(customer.client, endpoint.id, 3);
    expect(binary).toMatchObject({ succeeded: true, answer: 'binary' });
    await customer.client.delete(`/api/webhooks/${endpoint.id}`);
  });

  it('when an endpoint has had more than 100 attempts, then its log keeps the last 100, newest first', async () => {
    const endpoint = await register(customer.client, '/busy', ['receipt.created']);
    // Ten test events per endpoint per window (LOGIN_WINDOW_SECONDS, 15 minutes): the eleventh waits for the next.
    for (let n = 0; n < 105; n++) {
      if (n > 0 && n % 10 === 0) {
        expectError(
          await customer.client.post(`/api/webhooks/${endpoint.id}/test`, undefined, {
            headers: { 'Accept-Language': 'nl' },
          }),
          429,
          'RATE_LIMITED',
          'Er zijn in korte tijd veel testberichten naar dit eindpunt gestuurd. Probeer het over een paar minuten opnieuw.',
        );
        portal.clock.advance(15 * 60_000 + 1);
      }
      expect((await customer.client.post(`/api/webhooks/${endpoint.id}/test`)).status).toBe(202);
    }
    await eventually(
      () => requestsTo('/busy'),
      (requests) => requests.length === 105,
      30_000,
    );
    await runDueJobs();
    const log = await deliveries(customer.client, endpoint.id);
    expect(log).toHaveLength(100);
    expect(log.map((attempt) => attempt.id)).toEqual(
      [...log.map((attempt) => attempt.id)].sort((a, b) => b - a),
    );
    const [{ kept }] = (await queryDatabase<{ kept: number }>(
      portal,
      `SELECT COUNT(*) AS kept FROM webhook_deliveries WHERE endpointId = ${endpoint.id}`,
    )) as [{ kept: number }];
    expect(Number(kept)).toBe(100);
    await customer.client.delete(`/api/webhooks/${endpoint.id}`);
    const [{ left }] = (await queryDatabase<{ left: number }>(
      portal,
      `SELECT COUNT(*) AS left FROM webhook_deliveries WHERE endpointId = ${endpoint.id}`,
    )) as [{ left: number }];
    expect(Number(left)).toBe(0);
  });
});

describe('with the clock moved', () => {
  it('when a customer loses the consignee of a receipt whose delivery failed, then its retry sends nothing: the job is refused, the log shows only what was sent', async () => {
    const [receipt] = await queryDatabase<{ id: number; consigneeId: number }>(
      portal,
      'SELECT id, consigneeId FROM receipts WHERE consigneeId IS NOT NULL ORDER BY id LIMIT 1',
    );
    const consigneeId = Number(receipt!.consigneeId);
    const lapsed = await customerWith('hooklapsed', [consigneeId]);
    const endpoint = await register(lapsed.client, '/lapsed', ['prealert.matched']);
    plan('/lapsed', [], { status: 500, body: 'receiver broke' });
    expect(
      await queueWebhookEvent(portal.portal, {
        type: 'prealert.matched',
        receiptId: Number(receipt!.id),
      }),
    ).toBe(1);
    await waitForAttempts(lapsed.client, endpoint.id, 1);
    expect(
      (await admin.delete(`/api/consignees/${consigneeId}/remove-user/${lapsed.id}`)).status,
    ).toBe(200);
    portal.clock.advance(31_000);
    await runDueJobs();
    expect(requestsTo('/lapsed')).toHaveLength(1);
    const [job] = await queryDatabase<{ failedAt: string | null; lastError: string }>(
      portal,
      `SELECT failedAt, lastError FROM outbox_jobs WHERE kind = 'webhook.delivery' AND ${ofEndpoint(endpoint.id)} ORDER BY id DESC LIMIT 1`,
    );
    expect(job).toMatchObject({
      failedAt: expect.anything(),
      lastError: "The endpoint's owner may no longer see the receipt",
    });
    expect(await deliveries(lapsed.client, endpoint.id)).toHaveLength(1);
    await lapsed.client.delete(`/api/webhooks/${endpoint.id}`);
  });

  it('when the receiver keeps failing, then the delivery is retried with growing waits, always as the same message, and given up 24 hours after the event', async () => {
    const endpoint = await register(admin, '/down', ['prealert.matched']);
    plan('/down', [], { status: 503, body: 'down for maintenance' });
    const [receipt] = (await admin.get('/api/receipts?limit=1')).body.data as Array<{ id: number }>;
    const queuedAt = portal.clock.now();
    expect(
      await queueWebhookEvent(portal.portal, { type: 'prealert.matched', receiptId: receipt!.id }),
    ).toBe(1);
    await waitForAttempts(admin, endpoint.id, 1);
    const [job] = await queryDatabase<{ id: number }>(
      portal,
      `SELECT id FROM outbox_jobs WHERE kind = 'webhook.delivery' AND ${ofEndpoint(endpoint.id)} ORDER BY id DESC LIMIT 1`,
    );
    const jobRow = async () =>
      (
        await queryDatabase<{ attempts: number; failedAt: string | null; doneAt: string | null }>(
          portal,
          `SELECT attempts, failedAt, doneAt FROM outbox_jobs WHERE id = ${job!.id}`,
        )
      )[0]!;
    let hours = 0;
    for (; hours < 30 && !(await jobRow()).failedAt; hours++) {
      portal.clock.advance(HOUR_MS);
      await runDueJobs();
    }
    const row = await jobRow();
    expect(row.failedAt).not.toBeNull();
    expect(row.doneAt).toBeNull();
    // Waits of 30 s, 1, 2, 4 … minutes up to an hour: about 25 attempts in the day, none after it.
    expect(hours).toBeGreaterThanOrEqual(23);
    expect(hours).toBeLessThanOrEqual(25);
    const attempts = requestsTo('/down');
    expect(attempts.length).toBe(row.attempts);
    expect(attempts.length).toBeGreaterThan(10);
    expect(attempts.length).toBeLessThan(40);
    expect(new Set(attempts.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((request) => request.body)).size).toBe(1);
    const lastAttempt = Number(attempts.at(-1)!.headers['webhook-timestamp']) * 1000;
    expect(lastAttempt - queuedAt).toBeLessThanOrEqual(24 * HOUR_MS);
    const log = await deliveries(admin, endpoint.id);
    expect(log.map((attempt) => attempt.attempt)).toEqual(
      attempts.map((_, index) => attempts.length - index),
    );
    expect(log.every((attempt) => !attempt.succeeded && attempt.statusCode === 503)).toBe(true);

    portal.clock.advance(2 * HOUR_MS);
    await runDueJobs();
    expect(requestsTo('/down')).toHaveLength(attempts.length);
    await admin.delete(`/api/webhooks/${endpoint.id}`);
  });

  it('when an endpoint has failed for 3 days in a row, then it is disabled, its owner is e-mailed in their language, and the owner can turn it on again', async () => {
    expect(
      (await customer.client.put('/api/auth/profile/preferences', { locale: 'nl' })).status,
    ).toBe(200);
    const endpoint = await register(customer.client, '/failing', ['prealert.matched']);
    plan('/failing', [], { status: 500, body: 'still broken' });
    const receipts = (await admin.get('/api/receipts?limit=100')).body.data as Array<{
      id: number;
      consigneeName: string;
    }>;
    const theirs = receipts.find((receipt) => customerConsignees.has(receipt.consigneeName))!;
    const mailsBefore = smtp.messages.length;
    const state = async () => (await customer.client.get(`/api/webhooks/${endpoint.id}`)).body.data;

    // An event a day, each failing (and retried): the first failed attempt three days after the first failure turns the endpoint off.
    let failingSince: string | null = null;
    let days = 0;
    for (; days < 5 && (await state()).enabled; days++) {
      expect(
        await queueWebhookEvent(portal.portal, { type: 'prealert.matched', receiptId: theirs.id }),
      ).toBe(1);
      await runDueJobs();
      await eventually(
        () => requestsTo('/failing'),
        (requests) => requests.length > days,
      );
      failingSince ??= (await state()).failingSince;
      expect((await state()).failingSince).toBe(failingSince);
      portal.clock.advance(25 * HOUR_MS);
      await runDueJobs();
    }
    expect(days).toBe(3);
    const disabled = await state();
    expect(disabled).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
      disabledAt: expect.any(String),
      failingSince,
    });
    expect(Date.parse(disabled.disabledAt) - Date.parse(failingSince!)).toBeGreaterThanOrEqual(
      72 * HOUR_MS,
    );

    const mails = await eventually(
      () => smtp.messages.slice(mailsBefore),
      (received) => received.length === 1,
    );
    const mail = mails[0]!;
    expect((Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address).toBe(
      `${customer.username}@example.com`,
    );
    expect(mail.subject).toBe('Freight Portal: een webhook-endpoint is uitgezet');
    expect(mail.text).toContain(
      `Het afleveren bij ${receiver.url}/failing mislukt al 3 dagen achter elkaar`,
    );
    expect(mail.text).toContain('De laatste fout was: HTTP-status 500.');
    expect(mail.text).toContain(`${portal.url}/profile/webhooks?lang=nl`);

    // Turned off, it is told of nothing more (and no second e-mail comes).
    const seen = requestsTo('/failing').length;
    expect(
      await queueWebhookEvent(portal.portal, { type: 'prealert.matched', receiptId: theirs.id }),
    ).toBe(0);
    await runDueJobs();
    expect(requestsTo('/failing')).toHaveLength(seen);
    expect(smtp.messages.length).toBe(mailsBefore + 1);

    const on = await customer.client.put(`/api/webhooks/${endpoint.id}`, { enabled: true });
    expect(on.body.data).toMatchObject({
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
    });
    plan('/failing', [], { status: 204 });
    expect(
      await queueWebhookEvent(portal.portal, { type: 'prealert.matched', receiptId: theirs.id }),
    ).toBe(1);
    await eventually(
      () => requestsTo('/failing'),
      (requests) => requests.length === seen + 1,
    );
    const [delivered] = await waitForAttempts(customer.client, endpoint.id, seen + 1);
    expect(delivered).toMatchObject({ succeeded: true, statusCode: 204 });
  });
});
