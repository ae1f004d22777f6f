/**
 * Profile Settings → Webhooks: add an endpoint (its signing secret shown once), the list with each
 * endpoint's state, a test event, the delivery log, turning it off and on, and deleting it.
 */
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import type { Locale } from '~/shared/locale';
import type { CreatedWebhook, WebhookEndpointDto } from '~/shared/webhooks';
import { adoptLocale } from '../common/locale';
import { ReadyFieldset } from '../common/ReadyFieldset';
import { AddWebhookForm } from './AddWebhookForm';
import { DeleteWebhookModal } from './DeleteWebhookModal';
import { DeliveryLogModal } from './DeliveryLogModal';
import { WebhookCard } from './WebhookCard';
import { WebhookSecret } from './WebhookSecret';

export interface WebhookManagementProps {
  locale: Locale;
  initialEndpoints: WebhookEndpointDto[];
  /** WEBHOOK_ALLOW_HTTP: the hint may say that http:// works too. */
  allowHttp: boolean;
}

type Dialog =
  | { kind: 'none' }
  | { kind: 'log'; endpoint: WebhookEndpointDto }
  | { kind: 'delete'; endpoint: WebhookEndpointDto };

/** What one endpoint's card says after an action: a notice or a failure. */
type CardMessage = { endpointId: number; text: string; failed: boolean };

export default function WebhookManagement({
  locale,
  initialEndpoints,
  allowHttp,
}: WebhookManagementProps) {
  adoptLocale(locale);
  const [endpoints, setEndpoints] = useState(initialEndpoints);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [busyId, setBusyId] = useState<number | null>(null);
  const [message, setMessage] = useState<CardMessage | null>(null);

  const replace = (endpoint: WebhookEndpointDto) =>
    setEndpoints((list) => list.map((each) => (each.id === endpoint.id ? endpoint : each)));

  async function act(endpoint: WebhookEndpointDto, action: () => Promise<string>) {
    setBusyId(endpoint.id);
    setMessage(null);
    try {
      setMessage({ endpointId: endpoint.id, text: await action(), failed: false });
    } catch (error) {
      setMessage({ endpointId: endpoint.id, text: errorText(error), failed: true });
    }
    setBusyId(null);
  }

  const sendTest = (endpoint: WebhookEndpointDto) =>
    act(endpoint, async () => {
      await api('POST', `/webhooks/${endpoint.id}/test`);
      return m.webhook_test_queued();
    });

  const toggle = (endpoint: WebhookEndpointDto) =>
    act(endpoint, async () => {
      replace(
        await api('PUT', `/webhooks/${endpoint.id}`, {
          enabled: !endpoint.enabled,
        }),
      );
      return m.webhook_updated();
    });

  return (
    <ReadyFieldset>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 lg:items-start">
        <section
          className="surface flex min-w-0 flex-col gap-4 rounded-box border border-base-content/10 p-6"
          aria-labelledby="webhook-add-heading"
        >
          <h2 id="webhook-add-heading" className="text-lg font-semibold">
            {m.webhook_add_title()}
          </h2>
          {created ? (
            <WebhookSecret endpoint={created} onDone={() => setCreated(null)} />
          ) : (
            <AddWebhookForm
              allowHttp={allowHttp}
              onCreated={(endpoint) => {
                const { secret: _secret, ...listed } = endpoint;
                setEndpoints((list) => [...list, listed]);
                setCreated(endpoint);
              }}
            />
          )}
        </section>
        <section
          className="surface flex min-w-0 flex-col gap-4 rounded-box border border-base-content/10 p-6"
          aria-labelledby="webhook-list-heading"
        >
          <h2 id="webhook-list-heading" className="text-lg font-semibold">
            {m.webhook_list_title()}
          </h2>
          {endpoints.length === 0 ? (
            <p className="text-sm">{m.webhook_list_empty()}</p>
          ) : (
            <ul className="flex flex-col gap-3" aria-labelledby="webhook-list-heading">
              {endpoints.map((endpoint) => (
                <WebhookCard
                  key={endpoint.id}
                  endpoint={endpoint}
                  busy={busyId === endpoint.id}
                  message={message?.endpointId === endpoint.id ? message : null}
                  onTest={() => void sendTest(endpoint)}
                  onLog={() => setDialog({ kind: 'log', endpoint })}
                  onToggle={() => void toggle(endpoint)}
                  onDelete={() => setDialog({ kind: 'delete', endpoint })}
                />
              ))}
            </ul>
          )}
        </section>
      </div>
      {dialog.kind === 'log' && (
        <DeliveryLogModal endpoint={dialog.endpoint} onClose={() => setDialog({ kind: 'none' })} />
      )}
      {dialog.kind === 'delete' && (
        <DeleteWebhookModal
          endpoint={dialog.endpoint}
          onClose={() => setDialog({ kind: 'none' })}
          onDeleted={() => {
            const { id } = dialog.endpoint;
            setEndpoints((list) => list.filter((each) => each.id !== id));
            if (created?.id === id) setCreated(null);
            setDialog({ kind: 'none' });
          }}
        />
      )}
    </ReadyFieldset>
  );
}
