import { m } from '~/paraglide/messages.js';
import type { CreatedWebhook } from '~/shared/webhooks';
import { CopyField } from '../common/CopyField';

/** The new endpoint's signing secret, once, with a copy button: only the portal keeps it after this. */
export function WebhookSecret({
  endpoint,
  onDone,
}: {
  endpoint: CreatedWebhook;
  onDone: () => void;
}) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <div role="status" className="alert alert-success alert-soft">
        {m.webhook_created()}
      </div>
      <p className="break-all opacity-80">{endpoint.url}</p>
      <CopyField
        id="webhook-secret"
        label={m.webhook_secret_title()}
        value={endpoint.secret}
        copyLabel={m.webhook_copy()}
        copiedText={m.webhook_copied()}
        monospace
      />
      <p className="opacity-70">{m.webhook_secret_once()}</p>
      <button type="button" className="btn btn-sm btn-outline self-start" onClick={onDone}>
        {m.webhook_secret_done()}
      </button>
    </div>
  );
}
