import { useEffect, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { formatCount, formatDateTime } from '~/shared/format';
import { webhookFailureText } from '~/shared/webhook-failures';
import {
  WEBHOOK_DELIVERIES_KEPT,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
} from '~/shared/webhooks';
import { FailureAlert, Modal } from '../common/Modal';

/** While the log is open it is read again this often: a test event's attempt shows without a click. */
const REFRESH_MS = 3_000;

/**
 * The endpoint's last attempts, newest first: when, what, how it went, how long it took, and the
 * start of the answer.
 */
export function DeliveryLogModal({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpointDto;
  onClose: () => void;
}) {
  const [attempts, setAttempts] = useState<WebhookDeliveryDto[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // Bumped by Refresh: the log is read again at once.
  const [reads, setReads] = useState(0);

  useEffect(() => {
    let open = true;
    const read = () =>
      api('GET', `/webhooks/${endpoint.id}/deliveries`).then(
        (list) => {
          if (!open) return;
          setAttempts(list);
          setFailure(null);
        },
        (error: unknown) => open && setFailure(errorText(error)),
      );
    void read();
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      open = false;
      clearInterval(timer);
    };
  }, [endpoint.id, reads]);

  return (
    <Modal title={m.webhook_log_title()} onClose={onClose} wide>
      <FailureAlert message={failure} />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 text-sm wrap-anywhere opacity-70">
          {m.webhook_log_hint({ max: formatCount(WEBHOOK_DELIVERIES_KEPT), url: endpoint.url })}
        </p>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={() => setReads((count) => count + 1)}
        >
          {m.webhook_log_refresh()}
        </button>
      </div>
      {attempts === null ? (
        <p
          role="status"
          aria-label={m.webhook_log_loading()}
          className="flex items-center gap-2 text-sm"
        >
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          {m.webhook_log_loading()}
        </p>
      ) : attempts.length === 0 ? (
        <p className="text-sm">{m.webhook_log_empty()}</p>
      ) : (
        <ol className="flex flex-col gap-2" aria-label={m.webhook_log_title()}>
          {attempts.map((attempt) => (
            <li
              key={attempt.id}
              className="flex flex-col gap-1 rounded-box border border-base-content/10 p-3 text-sm"
              data-delivery={attempt.messageId}
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span
                  className={
                    attempt.succeeded
                      ? 'badge badge-success badge-soft'
                      : 'badge badge-error badge-soft'
                  }
                >
                  {attempt.succeeded ? m.webhook_log_delivered() : m.webhook_log_failed()}
                </span>
                {attempt.statusCode !== null && (
                  <span className="font-medium">
                    {m.webhook_log_status({ status: String(attempt.statusCode) })}
                  </span>
                )}
                <code className="text-xs">{attempt.eventType}</code>
                <span className="opacity-70">
                  {m.webhook_log_attempt({ attempt: String(attempt.attempt) })}
                </span>
              </div>
              <p className="opacity-70">
                <time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time> ·{' '}
                {m.webhook_log_duration({ ms: formatCount(attempt.durationMs) })} ·{' '}
                <code className="text-xs break-all">{attempt.messageId}</code>
              </p>
              {/* A failing status is already said beside the badge; an attempt logged before the
                  codes shows its text as it is. */}
              {attempt.failure
                ? attempt.failure.code !== 'http-status' && (
                    <p className="wrap-anywhere text-error">
                      {webhookFailureText(attempt.failure)}
                    </p>
                  )
                : attempt.error && <p className="wrap-anywhere text-error">{attempt.error}</p>}
              {attempt.answer && (
                <p className="min-w-0">
                  <span className="font-medium">{m.webhook_log_answer()}: </span>
                  <code className="text-xs break-all whitespace-pre-wrap">{attempt.answer}</code>
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}
