/**
 * Webhooks: a user's endpoints, told of receipt events by signed POSTs (Standard Webhooks), the input
 * rules for registering and changing one, and the shapes the API answers and the deliveries carry.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { prealertSchema, receiptPrealertSchema } from './prealerts';
import { receiptDetailsSchema } from './receipts';
import { webhookFailureSchema } from './webhook-failures';

/** The events an endpoint can take. */
export const WEBHOOK_EVENT_TYPES = [
  'receipt.created',
  'receipt.status_changed',
  'prealert.matched',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What "Send test event" delivers. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookMessageType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

export const WEBHOOK_URL_MAX = 2000;
/** Endpoints one user may have. */
export const WEBHOOK_ENDPOINTS_PER_USER = 10;
/**
 * Test events one endpoint may be sent per LOGIN_WINDOW_SECONDS: each is a request to an address of
 * the user's choosing.
 */
export const WEBHOOK_TESTS_PER_WINDOW = 10;
/** Attempts each endpoint's delivery log keeps. */
export const WEBHOOK_DELIVERIES_KEPT = 100;
/** Characters of an answer's body the log keeps. */
export const WEBHOOK_ANSWER_KEPT = 500;
/** An endpoint that has failed every attempt for this long is disabled, and its owner told. */
export const WEBHOOK_FAILING_DAYS = 3;

/** Why an endpoint is off: its owner turned it off, or it failed for days on end. */
export const WEBHOOK_DISABLED_REASONS = ['owner', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/**
 * An address deliveries can go to, as far as its text tells: http(s), no credentials in it. Whether
 * http:// is allowed and where the name leads are the server's to judge (WEBHOOK_ALLOW_HTTP,
 * WEBHOOK_ALLOW_PRIVATE).
 */
export const webhookUrlField = z.string({ error: () => m.webhook_url_required() }).check(
  z.trim(),
  z.minLength(1, { error: () => m.webhook_url_required() }),
  z.maxLength(WEBHOOK_URL_MAX, {
    error: () => m.webhook_url_too_long({ max: String(WEBHOOK_URL_MAX) }),
  }),
  z.refine(
    (value: string) =>
      URL.canParse(value) &&
      /^https?:$/.test(new URL(value).protocol) &&
      new URL(value).hostname !== '',
    {
      error: () => m.webhook_url_invalid(),
      abort: true,
    },
  ),
  z.refine((value: string) => !new URL(value).username && !new URL(value).password, {
    error: () => m.webhook_url_credentials(),
  }),
);

/** At least one event, each named once. */
export const webhookEventsField = z.pipe(
  z
    .array(
      z.enum(WEBHOOK_EVENT_TYPES, {
        error: () => m.webhook_event_unknown({ events: WEBHOOK_EVENT_TYPES.join(', ') }),
      }),
      {
        error: () => m.webhook_events_required(),
      },
    )
    .check(z.minLength(1, { error: () => m.webhook_events_required() })),
  z.transform((events: WebhookEventType[]) =>
    WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)),
  ),
);

/** `POST /api/webhooks`. */
export const createWebhookSchema = z.object({ url: webhookUrlField, events: webhookEventsField });
export type CreateWebhookPayload = z.input<typeof createWebhookSchema>;
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;

/** `PUT /api/webhooks/{id}`: any of the address, the events and whether it is on; at least one. */
export const updateWebhookSchema = z
  .object({
    url: z.optional(webhookUrlField),
    events: z.optional(webhookEventsField),
    enabled: z.optional(z.boolean({ error: () => m.webhook_enabled_invalid() })),
  })
  .check(
    z.refine(
      (input) =>
        input.url !== undefined || input.events !== undefined || input.enabled !== undefined,
      {
        error: () => m.webhook_update_empty(),
        when: (payload) => typeof payload.value === 'object' && payload.value !== null,
      },
    ),
  );
export type UpdateWebhookPayload = z.input<typeof updateWebhookSchema>;
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;

/** An endpoint as the API answers it: never its secret (shown once, when it is made). */
export const webhookEndpointSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabledReason: z.nullable(z.enum(WEBHOOK_DISABLED_REASONS)),
  disabledAt: z.nullable(z.string()),
  /** The first failed attempt since the last success; null while it works. */
  failingSince: z.nullable(z.string()),
  lastSuccessAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type WebhookEndpointDto = z.infer<typeof webhookEndpointSchema>;

/** `POST /api/webhooks` answers the new endpoint with its signing secret (`whsec_…`): the only time it is shown. */
export const createdWebhookSchema = z.extend(webhookEndpointSchema, { secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** `GET /api/webhooks?scope=all` (admins): every user's endpoints, with whose they are. */
export const ownedWebhookSchema = z.extend(webhookEndpointSchema, {
  owner: z.object({ id: z.number(), username: z.string() }),
});
export type OwnedWebhook = z.infer<typeof ownedWebhookSchema>;

/** `GET /api/webhooks`: `scope=all` lists every user's endpoints, for admins. */
export const webhookListQuerySchema = z.object({
  scope: z._default(z.enum(['own', 'all'], { error: () => m.webhook_scope_invalid() }), 'own'),
});

/** One attempt of the delivery log, newest first. */
export const webhookDeliverySchema = z.object({
  id: z.number(),
  /** The `webhook-id` header, the same on every attempt of one message. */
  messageId: z.string(),
  eventType: z.string(),
  /** 1 for a message's first attempt. */
  attempt: z.number(),
  at: z.string(),
  durationMs: z.number(),
  succeeded: z.boolean(),
  /** The answer's HTTP status; null when none came. */
  statusCode: z.nullable(z.number()),
  /** Why the attempt failed, in the reader's language; null when it succeeded. */
  error: z.nullable(z.string()),
  /**
   * Why it failed as a program reads it: a code from a closed set and its parameters, the same in
   * every language. Null when it succeeded, and for attempts logged before the codes (their `error`
   * is English text).
   */
  failure: z.nullable(webhookFailureSchema),
  /** The start of the answer's body. */
  answer: z.string(),
});
export type WebhookDeliveryDto = z.infer<typeof webhookDeliverySchema>;

/** `POST /api/webhooks/{id}/test` answers the message's id; the attempt shows in the delivery log. */
export const webhookTestSchema = z.object({ messageId: z.string() });
export type WebhookTest = z.infer<typeof webhookTestSchema>;

/**
 * What a delivery's body holds (the Standard Webhooks envelope): the event's type, when it happened,
 * and the receipt as `GET /api/receipts/{id}` shows it to the endpoint's owner. A status change adds
 * the status before it; a matched pre-alert, the pre-alert. A test event's data holds only the
 * endpoint's id.
 */
export const webhookEventSchema = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.object({
    receipt: z.optional(
      z.extend(receiptDetailsSchema, { prealerts: z.array(receiptPrealertSchema) }),
    ),
    previousStatus: z.optional(z.string()),
    prealert: z.optional(prealertSchema),
    endpointId: z.optional(z.number()),
  }),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
