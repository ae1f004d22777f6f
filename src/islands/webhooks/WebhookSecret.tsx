import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import type { CreatedWebhook } from '~/shared/webhooks';

/** The new endpoint's signing secret, once, with a copy button: only the portal keeps it after this. */
export function WebhookSecret({ endpoint, onDone }: { endpoint: CreatedWebhook; onDone: () => void }) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(endpoint.secret);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the secret stays selectable in its field.
    }
  }

  return (
    <div className="flex flex-col gap-3 text-sm">
      <div role="status" className="alert alert-success alert-soft">
        {m.webhook_created()}
      </div>
      <p className="break-all opacity-80">{endpoint.url}</p>
      <label htmlFor="webhook-secret" className="font-medium">
        {m.webhook_secret_title()}
      </label>
      <div className="flex gap-2">
        <input
          id="webhook-secret"
          className="input input-sm min-w-0 flex-1 font-mono"
          value={endpoint.secret}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="btn btn-sm btn-primary" onClick={() => void copy()}>
          {m.webhook_copy()}
        </button>
      </div>
      <p role="status" className="text-success">
        {copied ? m.webhook_copied() : ''}
      </p>
      <p className="opacity-70">{m.webhook_secret_once()}</p>
      <button type="button" className="btn btn-sm btn-outline self-start" onClick={onDone}>
        {m.webhook_secret_done()}
      </button>
    </div>
  );
}
