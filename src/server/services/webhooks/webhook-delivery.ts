/**
 * Webhook events and their delivery. An event (a receipt mirrored for the first time, a status that
 * changed, a pre-alert matched to a receipt) becomes one outbox job per endpoint that takes it, written
 * in the transaction that caused it. Who gets it is decided then: enabled endpoints of active owners,
 * an admin's (or admin-viewer's) for every receipt, a customer's only for their consignees' receipts.
 * The body, the Standard Webhooks envelope `{ type, timestamp, data: { receipt, … } }` with the receipt
 * as `GET /api/receipts/{id}` shows it, is fixed then too, so every attempt sends the same bytes under
 * the same `webhook-id`; only `webhook-timestamp` and the signature are the attempt's own.
 *
 * The outbox retries a failed attempt with growing waits and gives it up a day after the event. Each
 * attempt checks again that the owner may still see the receipt (a customer's consignee unassigned, an
 * admin made a customer): one who may not is sent nothing more. Every attempt is logged (the last 100
 * per endpoint). An endpoint that has not succeeded since a failure
 * three days ago is disabled and its owner e-mailed.
 */
import { randomUUID } from 'node:crypto';
import { Op, QueryTypes, type InferCreationAttributes, type Transaction } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { baseLocale, isLocale } from '~/shared/locale';
import {
  encodeWebhookFailure,
  isAddressRefusal,
  webhookFailureText,
  type WebhookFailure,
} from '~/shared/webhook-failures';
import {
  WEBHOOK_ANSWER_KEPT,
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_FAILING_DAYS,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
  type WebhookMessageType,
} from '~/shared/webhooks';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { WebhookDelivery, WebhookEndpoint } from '../../db/models';
import { decryptValue, encryptValue } from '../../encryption';
import { inLocale } from '../../locale';
import type { Logger } from '../../logger';
import { composeLinkEmail, linkInEmail } from '../../mail/compose';
import type { Mailer } from '../../mail/mailer';
import type { AppKeys } from '../../secrets';
import type { WebhookSender } from '../../webhook-sender';
import {
  enqueueJobs,
  enqueueMessages,
  JobRefused,
  type JobAttempt,
  type JobEntry,
  type JobHandler,
  type Outbox,
} from '../outbox';
import type { PageReaction, StatusChange } from '../sync-reactions';
import { readReceiptPrealerts, receiptDetailsByIds } from '../receipts';
import { DAY_MS } from '~/shared/constants';

/** The outbox job kind of one delivery. */
export const WEBHOOK_DELIVERY_JOB = 'webhook.delivery';
/** The secret's associated data: a ciphertext moved to another column does not decrypt. */
const SECRET_FIELD = 'webhook_endpoints.secret';
/** Where an owner manages their endpoints (Profile Settings → Webhooks). */
export const WEBHOOKS_PAGE = '/profile/webhooks';

export interface WebhookEventDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
}

export interface WebhookDeliveryDeps extends WebhookEventDeps {
  keys: Pick<AppKeys, 'webhookSecrets'>;
  webhookSender: WebhookSender;
  config: Pick<Config, 'publicUrl' | 'productName'>;
  mailer: Pick<Mailer, 'enabled'>;
  log: Logger;
}

const messageTypeSchema = z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]);
const idSchema = z.number().check(z.int(), z.positive());

/** The Standard Webhooks envelope a message sends, fixed when the event happens. */
const envelopeSchema = z.object({
  type: messageTypeSchema,
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
type Envelope = z.infer<typeof envelopeSchema>;

/**
 * A delivery job's payload: where, under which message id, about which receipt (null for a test), and
 * the envelope it sends. Its keys are in the order written, so every attempt sends the same bytes.
 */
const deliveryPayloadSchema = z.object({
  endpointId: idSchema,
  messageId: z.string(),
  receiptId: z.nullable(idSchema),
  envelope: envelopeSchema,
});
type DeliveryPayload = z.infer<typeof deliveryPayloadSchema>;

/**
 * The payload jobs had before this release, with the envelope as a JSON string, still accepted for the
 * deliveries an upgraded database holds (they are done or given up within a day; CHANGELOG.md).
 */
const earlierDeliveryPayloadSchema = z.object({
  endpointId: idSchema,
  messageId: z.string(),
  type: messageTypeSchema,
  body: z.string(),
});

/** A delivery as an attempt sends it. */
interface Delivery {
  endpointId: number;
  messageId: string;
  type: WebhookMessageType;
  receiptId: number | null;
  body: string;
}

/** An event about one receipt; `data` joins the receipt in the envelope's data. */
export interface ReceiptEvent {
  type: WebhookEventType;
  receiptId: number;
  data?: Record<string, unknown>;
}

/** An endpoint's signing secret as it is stored: encrypted, for only the portal can sign with it. */
export function sealWebhookSecret(keys: Pick<AppKeys, 'webhookSecrets'>, secret: string): string {
  return encryptValue(keys.webhookSecrets, secret, SECRET_FIELD);
}

function openWebhookSecret(keys: Pick<AppKeys, 'webhookSecrets'>, sealed: string): string | null {
  return decryptValue(keys.webhookSecrets, sealed, SECRET_FIELD);
}

/** `msg_` and 32 hex digits: unique per message, the same on each of its attempts. */
const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

function deliveryJob(
  endpointId: number,
  receiptId: number | null,
  envelope: Envelope,
): JobEntry & { payload: DeliveryPayload } {
  return {
    kind: WEBHOOK_DELIVERY_JOB,
    payload: { endpointId, messageId: newMessageId(), receiptId, envelope },
  };
}

const envelopeOf = (
  type: WebhookMessageType,
  at: Date,
  data: Record<string, unknown>,
): Envelope => ({ type, timestamp: at.toISOString(), data });

/**
 * The event types an endpoint takes, from their stored comma-separated form (one this version does
 * not know is left out).
 */
export const endpointEvents = (endpoint: { events: string }): WebhookEventType[] =>
  WEBHOOK_EVENT_TYPES.filter((type) => endpoint.events.split(',').includes(type));

interface Subscriber {
  id: number;
  userId: number;
  role: string;
  events: WebhookEventType[];
}

/** The enabled endpoints of active owners that take any of these types, with their owners' roles now. */
async function subscribersOf(
  db: Database,
  types: Set<WebhookEventType>,
  transaction?: Transaction,
): Promise<Subscriber[]> {
  const rows = await db.sequelize.query<{
    id: number;
    userId: number;
    role: string;
    events: string;
  }>(
    `SELECT e."id", e."userId", u."role", e."events"
       FROM "webhook_endpoints" e JOIN "users" u ON u."id" = e."userId"
      WHERE e."enabled" = :yes AND u."isActive" = :yes
      ORDER BY e."id"`,
    { type: QueryTypes.SELECT, replacements: { yes: true }, transaction },
  );
  return rows
    .map((row) => ({
      id: Number(row.id),
      userId: Number(row.userId),
      role: row.role,
      events: endpointEvents(row),
    }))
    .filter((endpoint) => endpoint.events.some((type) => types.has(type)));
}

/**
 * Whether an owner of this role, assigned these consignees, sees a receipt of this consignee: customers
 * see their consignees' receipts; admins and admin-viewers every receipt (as visibleConsigneeIds says).
 */
function maySeeReceipt(
  role: string,
  assigned: ReadonlySet<number> | undefined,
  consigneeId: number | null | undefined,
): boolean {
  if (role !== 'viewer') return true;
  return consigneeId !== null && consigneeId !== undefined && (assigned?.has(consigneeId) ?? false);
}

/** The consignees each of these customers is assigned now. */
async function consigneesOf(
  db: Database,
  userIds: number[],
  transaction?: Transaction,
): Promise<Map<number, Set<number>>> {
  const scopes = new Map<number, Set<number>>();
  if (userIds.length === 0) return scopes;
  const rows = await db.models.ConsigneeAssignment.findAll({
    attributes: ['userId', 'consigneeId'],
    where: { userId: userIds },
    raw: true,
    transaction,
  });
  for (const row of rows)
    scopes.set(row.userId, (scopes.get(row.userId) ?? new Set()).add(row.consigneeId));
  return scopes;
}

/**
 * Writes one delivery job per event and endpoint that takes it and may see its receipt; inside
 * `transaction` (the one that wrote the receipts) they exist only if it commits. Answers how many.
 * Costs one small query when no endpoint takes these events.
 */
export async function queueReceiptEvents(
  deps: WebhookEventDeps,
  events: ReceiptEvent[],
  transaction?: Transaction,
): Promise<number> {
  if (events.length === 0) return 0;
  const { db, clock } = deps;
  const endpoints = await subscribersOf(
    db,
    new Set(events.map((event) => event.type)),
    transaction,
  );
  if (endpoints.length === 0) return 0;
  const scopes = await consigneesOf(
    db,
    endpoints.filter((endpoint) => endpoint.role === 'viewer').map((endpoint) => endpoint.userId),
    transaction,
  );
  const wanted = events.filter((event) =>
    endpoints.some((endpoint) => endpoint.events.includes(event.type)),
  );
  const receiptIds = [...new Set(wanted.map((event) => event.receiptId))];
  // In turn: the transaction's one connection takes one query at a time (pg 8 queues a second with a
  // DeprecationWarning, a queue pg 9 is to remove).
  const receipts = await receiptDetailsByIds({ db }, receiptIds, null, transaction);
  const prealerts = await readReceiptPrealerts({ db }, receiptIds, transaction);
  const consigneeRows = await db.models.ReceiptRecord.findAll({
    attributes: ['id', 'consigneeId'],
    where: { id: receiptIds },
    raw: true,
    transaction,
  });
  const consigneeOf = new Map(consigneeRows.map((row) => [row.id, row.consigneeId]));
  const maySee = (endpoint: Subscriber, receiptId: number) =>
    maySeeReceipt(endpoint.role, scopes.get(endpoint.userId), consigneeOf.get(receiptId));
  const at = new Date(clock.now());
  const jobs: JobEntry[] = [];
  for (const event of wanted) {
    const receipt = receipts.get(event.receiptId);
    // A receipt the provider has since deleted is no event any more.
    if (!receipt) continue;
    // Every endpoint that may see the receipt gets the same envelope: the receipt shows the same to all who see it.
    let envelope: Envelope | undefined;
    for (const endpoint of endpoints) {
      if (!endpoint.events.includes(event.type) || !maySee(endpoint, event.receiptId)) continue;
      envelope ??= envelopeOf(event.type, at, {
        receipt: { ...receipt, prealerts: prealerts.get(event.receiptId) ?? [] },
        ...event.data,
      });
      jobs.push(deliveryJob(endpoint.id, event.receiptId, envelope));
    }
  }
  await enqueueJobs(deps, jobs, transaction);
  return jobs.length;
}

/**
 * The events of a sync page's status changes: a status change of a known receipt, and a receipt new
 * to the mirror. The very first mirroring announces no new receipts: the whole backlog (100,000
 * receipts and more) would become as many jobs per endpoint, telling an endpoint about receipts that
 * are not new to anyone. Status e-mails skip first mirrorings for the same reason.
 */
export function receiptEventsOf(changes: StatusChange[], firstMirroring: boolean): ReceiptEvent[] {
  return changes.flatMap((change): ReceiptEvent[] => {
    if (change.from !== null)
      return [
        {
          type: 'receipt.status_changed',
          receiptId: change.receiptId,
          data: { previousStatus: change.from },
        },
      ];
    return firstMirroring ? [] : [{ type: 'receipt.created', receiptId: change.receiptId }];
  });
}

/** The sync's reaction to a page: the events of the status changes the history recorded on it (its news so far). */
export function webhookEventsReaction(deps: WebhookEventDeps): PageReaction {
  return async (page, news, transaction) => {
    await queueReceiptEvents(
      deps,
      receiptEventsOf(news.statusChanges, page.firstMirroring),
      transaction,
    );
  };
}

/**
 * Queues one event about one receipt for every endpoint that takes it; the pre-alert linking calls
 * this with `prealert.matched` (and the pre-alert as the API shows it) inside its own transaction.
 */
export async function queueWebhookEvent(
  deps: WebhookEventDeps,
  event: { type: WebhookEventType; receiptId: number; prealert?: unknown },
  transaction?: Transaction,
): Promise<number> {
  const data = event.prealert === undefined ? undefined : { prealert: event.prealert };
  return queueReceiptEvents(
    deps,
    [{ type: event.type, receiptId: event.receiptId, data }],
    transaction,
  );
}

/** Queues a `webhook.test` message to one endpoint; answers its message id. */
export async function queueTestEvent(deps: WebhookEventDeps, endpointId: number): Promise<string> {
  const job = deliveryJob(
    endpointId,
    null,
    envelopeOf(WEBHOOK_TEST_EVENT, new Date(deps.clock.now()), { endpointId }),
  );
  await enqueueJobs(deps, [job]);
  return job.payload.messageId;
}

/** The receipt an earlier payload's event is about: its envelope carries it as `data.receipt`. */
const earlierEnvelopeSchema = z.object({ data: z.object({ receipt: z.object({ id: idSchema }) }) });

/** The delivery a job's payload describes, in either shape; a payload that is neither is refused. */
function readDelivery(payload: unknown): Delivery {
  const current = deliveryPayloadSchema.safeParse(payload);
  if (current.success) {
    const { envelope, ...delivery } = current.data;
    if (delivery.receiptId === null && envelope.type !== WEBHOOK_TEST_EVENT)
      throw new JobRefused('The event names no receipt');
    return { ...delivery, type: envelope.type, body: JSON.stringify(envelope) };
  }
  const earlier = earlierDeliveryPayloadSchema.safeParse(payload);
  if (!earlier.success) throw new JobRefused('Not a webhook delivery');
  const delivery = earlier.data;
  if (delivery.type === WEBHOOK_TEST_EVENT) return { ...delivery, receiptId: null };
  let event: unknown;
  try {
    event = JSON.parse(delivery.body);
  } catch {
    throw new JobRefused('The event names no receipt');
  }
  const named = earlierEnvelopeSchema.safeParse(event);
  if (!named.success) throw new JobRefused('The event names no receipt');
  return { ...delivery, receiptId: named.data.data.receipt.id };
}

/** Whether the endpoint's owner, as they are now, may see the receipt as it is now. */
async function ownerMaySee(
  db: Database,
  owner: { id: number; role: string },
  receiptId: number,
): Promise<boolean> {
  if (owner.role !== 'viewer') return true;
  const receipt = await db.models.ReceiptRecord.findByPk(receiptId, {
    attributes: ['consigneeId'],
    raw: true,
  });
  if (!receipt) return false;
  const scopes = await consigneesOf(db, [owner.id]);
  return maySeeReceipt(owner.role, scopes.get(owner.id), receipt.consigneeId);
}

/** Keeps an attempt in the endpoint's log, and only its last 100. */
async function logAttempt(
  db: Database,
  attempt: Omit<InferCreationAttributes<WebhookDelivery>, 'id'>,
): Promise<void> {
  await db.models.WebhookDelivery.create(attempt);
  await db.sequelize.query(
    `DELETE FROM "webhook_deliveries" WHERE "endpointId" = :endpointId AND "id" <= (
       SELECT "id" FROM "webhook_deliveries" WHERE "endpointId" = :endpointId ORDER BY "id" DESC LIMIT 1 OFFSET :kept)`,
    { replacements: { endpointId: attempt.endpointId, kept: WEBHOOK_DELIVERIES_KEPT } },
  );
}

/** The owner's e-mail, in their language, saying that their endpoint was disabled and how to turn it on again. */
async function queueDisabledEmail(
  deps: WebhookDeliveryDeps,
  endpoint: WebhookEndpoint,
  lastFailure: WebhookFailure,
  transaction: Transaction,
): Promise<void> {
  const { db, config } = deps;
  const owner = await db.models.User.findByPk(endpoint.userId, {
    attributes: ['id', 'username', 'fullName', 'email', 'locale'],
    raw: true,
    transaction,
  });
  if (!deps.mailer.enabled || !owner?.email) return;
  const mail = inLocale(isLocale(owner.locale) ? owner.locale : baseLocale, () =>
    composeLinkEmail({
      subject: m.webhook_email_disabled_subject({ product: config.productName }),
      greeting: m.email_greeting({ name: owner.fullName || owner.username }),
      intro: m.webhook_email_disabled_intro({
        url: endpoint.url,
        days: String(WEBHOOK_FAILING_DAYS),
        error: webhookFailureText(lastFailure),
      }),
      linkText: m.webhook_email_disabled_link(),
      url: linkInEmail(config.publicUrl, WEBHOOKS_PAGE),
      note: m.webhook_email_disabled_note({ product: config.productName }),
    }),
  );
  await enqueueMessages(
    deps,
    [{ ...mail, to: owner.email, userId: owner.id, unsubscribeUrl: null }],
    transaction,
  );
}

/**
 * After a failed attempt: the endpoint is failing since now unless it was already; once that is three
 * days ago it is disabled (by one process only) and its owner e-mailed. Answers whether it is disabled now.
 */
async function noteFailure(
  deps: WebhookDeliveryDeps,
  endpoint: WebhookEndpoint,
  failure: WebhookFailure,
): Promise<boolean> {
  const { db, clock } = deps;
  const now = new Date(clock.now());
  const { WebhookEndpoint } = db.models;
  await WebhookEndpoint.update(
    { failingSince: now },
    { where: { id: endpoint.id, failingSince: null } },
  );
  const threshold = new Date(now.getTime() - WEBHOOK_FAILING_DAYS * DAY_MS);
  return db.sequelize.transaction(async (transaction) => {
    const [disabled] = await WebhookEndpoint.update(
      { enabled: false, disabledReason: 'failing', disabledAt: now },
      {
        where: { id: endpoint.id, enabled: true, failingSince: { [Op.lte]: threshold } },
        transaction,
      },
    );
    if (disabled === 0) return false;
    await queueDisabledEmail(deps, endpoint, failure, transaction);
    deps.log.warn(
      { component: 'webhooks', endpointId: endpoint.id, userId: endpoint.userId },
      `A webhook endpoint failed for ${WEBHOOK_FAILING_DAYS} days and was disabled`,
    );
    return true;
  });
}

/**
 * One attempt of one delivery job: signed, sent, logged. A failure is thrown for the outbox to retry,
 * unless retrying cannot help (the address is refused, the endpoint is gone or disabled, its owner may
 * no longer see the receipt) or it was a test, which is tried once: then the job is given up at once.
 * What is refused before sending is no attempt: the endpoint's log shows only what was sent.
 */
export async function deliverWebhook(
  deps: WebhookDeliveryDeps,
  payload: unknown,
  job: JobAttempt,
): Promise<void> {
  const { db, clock, keys, webhookSender } = deps;
  const message = readDelivery(payload);
  const endpoint = await db.models.WebhookEndpoint.findByPk(message.endpointId);
  if (!endpoint) throw new JobRefused('The endpoint was deleted');
  const owner = await db.models.User.findByPk(endpoint.userId, {
    attributes: ['id', 'isActive', 'role'],
    raw: true,
  });
  if (!owner?.isActive) throw new JobRefused("The endpoint's owner is disabled");
  // Decided when the event was queued, and again now: a retry may come a day later.
  const { receiptId } = message;
  if (receiptId !== null && !(await ownerMaySee(db, owner, receiptId)))
    throw new JobRefused("The endpoint's owner may no longer see the receipt");
  const isTest = message.type === WEBHOOK_TEST_EVENT;
  // A test may go to a disabled endpoint: it is how its owner sees that it works again.
  if (!endpoint.enabled && !isTest) throw new JobRefused('The endpoint is disabled');
  const secret = openWebhookSecret(keys, endpoint.secret);
  if (secret === null)
    throw new JobRefused('The signing secret does not decrypt: APP_SECRET has changed');

  const sentAt = new Date(clock.now());
  const outcome = await webhookSender.send({
    url: endpoint.url,
    body: message.body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'FreightPortal-Webhooks/1',
      'webhook-id': message.messageId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(message.messageId, sentAt, message.body),
    },
  });
  await logAttempt(db, {
    endpointId: endpoint.id,
    messageId: message.messageId,
    eventType: message.type,
    attempt: job.attempts + 1,
    at: sentAt,
    durationMs: outcome.durationMs,
    succeeded: outcome.failure === null,
    statusCode: outcome.statusCode,
    // The code and its parameters: each reader sees it in their own language.
    error: outcome.failure && encodeWebhookFailure(outcome.failure),
    // PostgreSQL's text takes no NUL character, which a binary answer may hold.
    answer: outcome.answer.replaceAll('\u0000', '').slice(0, WEBHOOK_ANSWER_KEPT),
  });
  const { failure } = outcome;
  if (failure === null) {
    await endpoint.update({ failingSince: null, lastSuccessAt: new Date(clock.now()) });
    return;
  }
  const disabled = !isTest && (await noteFailure(deps, endpoint, failure));
  // The job's error is the operator's, read in the logs: in the base language, whoever's request it is.
  const reason = inLocale(baseLocale, () => webhookFailureText(failure));
  if (isTest || disabled || isAddressRefusal(failure)) throw new JobRefused(reason);
  throw new Error(reason);
}

/** The outbox's handler of delivery jobs (the composition root registers it). */
export function webhookDeliveryHandler(deps: WebhookDeliveryDeps): JobHandler {
  return { run: (payload, job) => deliverWebhook(deps, payload, job) };
}
