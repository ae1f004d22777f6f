import { m } from '~/paraglide/messages.js';
import type { WebhookEndpointDto } from '~/shared/webhooks';
import { LocalDate } from '../common/LocalDate';
import { eventLabel, statusText } from './labels';

interface WebhookCardProps {
  endpoint: WebhookEndpointDto;
  busy: boolean;
  message: { text: string; failed: boolean } | null;
  onTest: () => void;
  onLog: () => void;
  onToggle: () => void;
  onDelete: () => void;
}

/** One endpoint: its address, state and events, and what can be done with it. */
export function WebhookCard({
  endpoint,
  busy,
  message,
  onTest,
  onLog,
  onToggle,
  onDelete,
}: WebhookCardProps) {
  const { url } = endpoint;
  return (
    <li
      className="flex flex-col gap-2 rounded-box border border-base-content/10 p-3 text-sm"
      data-webhook={endpoint.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-medium break-all">{url}</p>
        <span
          className={
            endpoint.enabled ? 'badge badge-success badge-soft' : 'badge badge-warning badge-soft'
          }
          data-webhook-status
        >
          {statusText(endpoint)}
        </span>
      </div>
      <ul className="flex flex-wrap gap-1" aria-label={m.webhook_events_label()}>
        {endpoint.events.map((type) => (
          <li key={type} className="badge badge-ghost h-auto py-0.5">
            {eventLabel(type)}
          </li>
        ))}
      </ul>
      {endpoint.failingSince && (
        <p className="font-medium">
          {m.webhook_failing_since()} <LocalDate value={endpoint.failingSince} withTime />
        </p>
      )}
      {endpoint.lastSuccessAt && (
        <p className="opacity-70">
          {m.webhook_last_success()} <LocalDate value={endpoint.lastSuccessAt} withTime />
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-sm btn-primary"
          onClick={onTest}
          disabled={busy}
          aria-label={m.webhook_send_test_label({ url })}
        >
          {busy ? m.webhook_sending_test() : m.webhook_send_test()}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={onLog}
          aria-label={m.webhook_show_log_label({ url })}
        >
          {m.webhook_show_log()}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={onToggle}
          disabled={busy}
          aria-label={
            endpoint.enabled ? m.webhook_disable_label({ url }) : m.webhook_enable_label({ url })
          }
        >
          {endpoint.enabled ? m.webhook_disable() : m.webhook_enable()}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline btn-error"
          onClick={onDelete}
          aria-label={m.webhook_delete_label({ url })}
        >
          {m.webhook_delete()}
        </button>
      </div>
      {message && (
        <p
          role={message.failed ? 'alert' : 'status'}
          className={message.failed ? 'text-error' : 'text-success'}
        >
          {message.text}
        </p>
      )}
    </li>
  );
}
