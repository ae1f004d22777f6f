import { useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, ApiError, errorText } from '~/shared/api-client';
import { fieldErrors } from '~/shared/validation';
import {
  createWebhookSchema,
  WEBHOOK_EVENT_TYPES,
  type CreatedWebhook,
  type WebhookEventType,
} from '~/shared/webhooks';
import { eventLabel } from './labels';

interface AddWebhookFormProps {
  allowHttp: boolean;
  onCreated: (endpoint: CreatedWebhook) => void;
}

/** The address and the events; the rules are the API's own (src/shared/webhooks.ts). */
export function AddWebhookForm({ allowHttp, onCreated }: AddWebhookFormProps) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [pending, setPending] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    const payload = {
      url: String(form.get('url') ?? ''),
      events: form.getAll('events').map(String),
    };
    const parsed = createWebhookSchema.safeParse(payload);
    setFailure('');
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      onCreated(await api('POST', '/webhooks', parsed.data));
    } catch (error) {
      const details =
        error instanceof ApiError && Array.isArray(error.body?.details) ? error.body.details : [];
      const url = details.find((detail) => detail.field === 'url');
      if (url) setErrors({ url: url.message });
      else setFailure(errorText(error));
    }
    setPending(false);
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor="webhook-url" className="text-sm font-medium">
          {m.webhook_url_label()}
        </label>
        <input
          id="webhook-url"
          name="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://"
          className={errors.url ? 'input input-error w-full' : 'input w-full'}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={errors.url ? 'webhook-url-error webhook-url-hint' : 'webhook-url-hint'}
          onChange={() => setErrors(({ url: _url, ...rest }) => rest)}
        />
        {errors.url && (
          <p id="webhook-url-error" className="text-sm text-error">
            {errors.url}
          </p>
        )}
        <p id="webhook-url-hint" className="text-xs opacity-70">
          {allowHttp ? m.webhook_url_hint_http() : m.webhook_url_hint()}
        </p>
      </div>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={errors.events ? 'webhook-events-error' : undefined}
      >
        <legend className="mb-1 text-sm font-medium">{m.webhook_events_label()}</legend>
        {WEBHOOK_EVENT_TYPES.map((type: WebhookEventType) => (
          <label key={type} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="events"
              value={type}
              defaultChecked={type !== 'prealert.matched'}
              className="checkbox checkbox-sm mt-0.5"
            />
            <span>
              {eventLabel(type)} <code className="text-xs opacity-70">{type}</code>
            </span>
          </label>
        ))}
        {errors.events && (
          <p id="webhook-events-error" className="text-sm text-error">
            {errors.events}
          </p>
        )}
      </fieldset>
      {failure && (
        <div role="alert" className="alert alert-error alert-soft text-sm">
          {failure}
        </div>
      )}
      <button type="submit" className="btn btn-primary self-start" disabled={pending}>
        {pending ? m.webhook_adding() : m.webhook_add()}
      </button>
    </form>
  );
}
