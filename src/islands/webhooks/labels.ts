/** Webhook texts shared by the screen's parts, in the reader's language. */
import { m } from '~/paraglide/messages.js';
import {
  WEBHOOK_FAILING_DAYS,
  type WebhookEndpointDto,
  type WebhookEventType,
} from '~/shared/webhooks';

const EVENT_LABELS: Record<WebhookEventType, () => string> = {
  'receipt.created': () => m.webhook_event_receipt_created(),
  'receipt.status_changed': () => m.webhook_event_receipt_status_changed(),
  'prealert.matched': () => m.webhook_event_prealert_matched(),
};

export const eventLabel = (type: WebhookEventType) => EVENT_LABELS[type]();

/** On, turned off by its owner, or turned off for failing. */
export function statusText(endpoint: WebhookEndpointDto): string {
  if (endpoint.enabled) return m.webhook_status_enabled();
  return endpoint.disabledReason === 'failing'
    ? m.webhook_status_disabled_failing({ days: String(WEBHOOK_FAILING_DAYS) })
    : m.webhook_status_disabled_owner();
}
