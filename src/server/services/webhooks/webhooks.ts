/**
 * Webhook endpoints, managed by their owners: register one (its signing secret is shown once), list,
 * change, turn off and on, delete, send a test event, read the delivery log. Each user manages only
 * their own (anyone else's id is a 404); admins may also list everyone's, read-only. What an endpoint
 * is told, and how, is webhook-delivery.ts's.
 */
import { randomBytes } from 'node:crypto';
import { m } from '~/paraglide/messages.js';
import type { PublicUser } from '~/shared/validation';
import { decodeWebhookFailure, webhookFailureText } from '~/shared/webhook-failures';
import {
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_ENDPOINTS_PER_USER,
  WEBHOOK_TESTS_PER_WINDOW,
  type CreateWebhookInput,
  type CreatedWebhook,
  type OwnedWebhook,
  type UpdateWebhookInput,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
  type WebhookTest,
} from '~/shared/webhooks';
import type { Config } from '../../config';
import type { WebhookEndpoint } from '../../db/models';
import { AppError } from '../../errors';
import { addressKind, isIpLiteral, isLocalhostName } from '../../network-address';
import type { AppKeys } from '../../secrets';
import { recordAudit, type AuditActor, type AuditDeps } from '../audit';
import type { LoginLimiter } from '../accounts';
import {
  endpointEvents,
  queueTestEvent,
  sealWebhookSecret,
  type WebhookEventDeps,
} from './webhook-delivery';

export interface WebhookDeps extends WebhookEventDeps, AuditDeps {
  keys: Pick<AppKeys, 'webhookSecrets'>;
  loginLimiter: Pick<LoginLimiter, 'admitRequest'>;
  config: Pick<Config, 'webhookAllowHttp' | 'webhookAllowPrivate'>;
}

const iso = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : new Date(value).toISOString();

function toDto(endpoint: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpointEvents(endpoint),
    enabled: endpoint.enabled,
    disabledReason: endpoint.enabled ? null : (endpoint.disabledReason ?? 'owner'),
    disabledAt: endpoint.enabled ? null : iso(endpoint.disabledAt),
    failingSince: iso(endpoint.failingSince),
    lastSuccessAt: iso(endpoint.lastSuccessAt),
    createdAt: iso(endpoint.createdAt)!,
  };
}

/** The audit trail names an endpoint by its id and origin: a path may hold a token of the receiver's. */
const auditTarget = (endpoint: WebhookEndpoint) => `webhook ${endpoint.id}`;
const auditDetail = (endpoint: WebhookEndpoint) => ({ origin: new URL(endpoint.url).origin });

const urlRefusal = (message: string) =>
  new AppError('VALIDATION_ERROR', message, { details: [{ field: 'url', message }] });

/**
 * What registration can tell of an address besides its text: http:// needs WEBHOOK_ALLOW_HTTP; a
 * literal private address or `localhost` needs WEBHOOK_ALLOW_PRIVATE. A name is judged by what it
 * resolves to at each delivery, not here: it may resolve elsewhere by then.
 */
function checkEndpointUrl({ config }: Pick<WebhookDeps, 'config'>, text: string): void {
  const url = new URL(text);
  if (url.protocol !== 'https:' && !config.webhookAllowHttp)
    throw urlRefusal(m.webhook_url_https());
  if (config.webhookAllowPrivate) return;
  const local = isIpLiteral(url.hostname)
    ? addressKind(url.hostname) !== null
    : isLocalhostName(url.hostname);
  if (local) throw urlRefusal(m.webhook_url_private());
}

async function findOwnEndpoint(
  { db }: Pick<WebhookDeps, 'db'>,
  user: PublicUser,
  id: number,
): Promise<WebhookEndpoint> {
  const endpoint = await db.models.WebhookEndpoint.findOne({ where: { id, userId: user.id } });
  // Someone else's endpoint is indistinguishable from one that does not exist.
  if (!endpoint) throw new AppError('NOT_FOUND', m.webhook_not_found());
  return endpoint;
}

/** The user's endpoints, oldest first. */
export async function listWebhooks(
  { db }: Pick<WebhookDeps, 'db'>,
  user: PublicUser,
): Promise<WebhookEndpointDto[]> {
  const endpoints = await db.models.WebhookEndpoint.findAll({
    where: { userId: user.id },
    order: [['id', 'ASC']],
  });
  return endpoints.map(toDto);
}

/** Every user's endpoints with their owners, for an admin to see where the portal sends data; read-only. */
export async function listAllWebhooks({ db }: Pick<WebhookDeps, 'db'>): Promise<OwnedWebhook[]> {
  const endpoints = await db.models.WebhookEndpoint.findAll({ order: [['id', 'ASC']] });
  const owners = await db.models.User.findAll({
    attributes: ['id', 'username'],
    where: { id: [...new Set(endpoints.map((endpoint) => endpoint.userId))] },
    raw: true,
  });
  const names = new Map(owners.map((owner) => [owner.id, owner.username]));
  return endpoints.map((endpoint) => ({
    ...toDto(endpoint),
    owner: { id: endpoint.userId, username: names.get(endpoint.userId) ?? '' },
  }));
}

export async function readWebhook(
  deps: Pick<WebhookDeps, 'db'>,
  user: PublicUser,
  id: number,
): Promise<WebhookEndpointDto> {
  return toDto(await findOwnEndpoint(deps, user, id));
}

/** Registers an endpoint for the user; answers it with its secret, which is never shown again. */
export async function createWebhook(
  deps: WebhookDeps,
  actor: AuditActor,
  user: PublicUser,
  input: CreateWebhookInput,
): Promise<CreatedWebhook> {
  const { db, clock, keys } = deps;
  checkEndpointUrl(deps, input.url);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const endpoint = await db.sequelize.transaction(async (transaction) => {
    // The owner's row stays locked until the end (PostgreSQL; SQLite's immediate transactions already
    // take turns), so two registrations at once cannot both slip under the limit.
    const owner = await db.models.User.findByPk(user.id, {
      attributes: ['id'],
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    if (!owner) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
    const count = await db.models.WebhookEndpoint.count({
      where: { userId: user.id },
      transaction,
    });
    if (count >= WEBHOOK_ENDPOINTS_PER_USER)
      throw new AppError(
        'CONFLICT',
        m.webhook_limit_reached({ max: String(WEBHOOK_ENDPOINTS_PER_USER) }),
      );
    const created = await db.models.WebhookEndpoint.create(
      {
        userId: user.id,
        url: input.url,
        events: input.events.join(','),
        secret: sealWebhookSecret(keys, secret),
        createdAt: new Date(clock.now()),
      },
      { transaction },
    );
    await recordAudit(
      deps,
      actor,
      { action: 'webhook.created', target: auditTarget(created), detail: auditDetail(created) },
      transaction,
    );
    return created;
  });
  return { ...toDto(endpoint), secret };
}

/**
 * Changes the address or the events, or turns the endpoint off or on. Turning it on again starts
 * afresh: it is no longer counted as failing.
 */
export async function updateWebhook(
  deps: WebhookDeps,
  actor: AuditActor,
  user: PublicUser,
  id: number,
  input: UpdateWebhookInput,
): Promise<WebhookEndpointDto> {
  const endpoint = await findOwnEndpoint(deps, user, id);
  if (input.url !== undefined) checkEndpointUrl(deps, input.url);
  const now = new Date(deps.clock.now());
  // Where deliveries go and what they carry is audited like the endpoint's making: an admin's
  // endpoint gets every receipt.
  const redirected =
    (input.url !== undefined && input.url !== endpoint.url) ||
    (input.events !== undefined && input.events.join(',') !== endpoint.events);
  await deps.db.sequelize.transaction(async (transaction) => {
    await endpoint.update(
      {
        ...(input.url !== undefined && { url: input.url }),
        ...(input.events !== undefined && { events: input.events.join(',') }),
        ...(input.enabled === true &&
          !endpoint.enabled && {
            enabled: true,
            disabledReason: null,
            disabledAt: null,
            failingSince: null,
          }),
        ...(input.enabled === false &&
          endpoint.enabled && {
            enabled: false,
            disabledReason: 'owner' as const,
            disabledAt: now,
          }),
      },
      { transaction },
    );
    if (redirected) {
      await recordAudit(
        deps,
        actor,
        { action: 'webhook.updated', target: auditTarget(endpoint), detail: auditDetail(endpoint) },
        transaction,
      );
    }
  });
  return toDto(endpoint);
}

/** Deletes the endpoint with its log; deliveries still waiting are dropped when their turn comes. */
export async function deleteWebhook(
  deps: WebhookDeps,
  actor: AuditActor,
  user: PublicUser,
  id: number,
): Promise<void> {
  const endpoint = await findOwnEndpoint(deps, user, id);
  await deps.db.sequelize.transaction(async (transaction) => {
    await deps.db.models.WebhookDelivery.destroy({
      where: { endpointId: endpoint.id },
      transaction,
    });
    await endpoint.destroy({ transaction });
    await recordAudit(
      deps,
      actor,
      { action: 'webhook.deleted', target: auditTarget(endpoint), detail: auditDetail(endpoint) },
      transaction,
    );
  });
}

/** Queues a `webhook.test` message to the endpoint (also a disabled one); its attempt shows in the log. */
export async function sendTestWebhook(
  deps: WebhookDeps,
  actor: AuditActor,
  user: PublicUser,
  id: number,
): Promise<WebhookTest> {
  const endpoint = await findOwnEndpoint(deps, user, id);
  // Each test is a request to an address of the user's choosing: a few per window, per endpoint.
  if (
    !(await deps.loginLimiter.admitRequest(
      `webhook tests of endpoint ${endpoint.id}`,
      WEBHOOK_TESTS_PER_WINDOW,
    ))
  ) {
    throw new AppError('RATE_LIMITED', m.limits_webhook_tests());
  }
  const messageId = await queueTestEvent(deps, endpoint.id);
  await recordAudit(deps, actor, {
    action: 'webhook.test-sent',
    target: auditTarget(endpoint),
    detail: auditDetail(endpoint),
  });
  return { messageId };
}

/** The endpoint's last attempts, newest first (at most 100 are kept). */
export async function listWebhookDeliveries(
  deps: Pick<WebhookDeps, 'db'>,
  user: PublicUser,
  id: number,
): Promise<WebhookDeliveryDto[]> {
  const endpoint = await findOwnEndpoint(deps, user, id);
  const rows = await deps.db.models.WebhookDelivery.findAll({
    where: { endpointId: endpoint.id },
    order: [['id', 'DESC']],
    limit: WEBHOOK_DELIVERIES_KEPT,
    raw: true,
  });
  return rows.map((row) => {
    const failure = decodeWebhookFailure(row.error);
    return {
      id: row.id,
      messageId: row.messageId,
      eventType: row.eventType,
      attempt: row.attempt,
      at: iso(row.at)!,
      durationMs: row.durationMs,
      succeeded: Boolean(row.succeeded),
      statusCode: row.statusCode,
      // An attempt logged before the codes keeps its English text.
      error: failure ? webhookFailureText(failure) : row.error,
      failure,
      answer: row.answer ?? '',
    };
  });
}
