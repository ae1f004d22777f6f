import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { WebhookEndpointDto } from '~/shared/webhooks';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { useConfirmedAction } from '../common/use-confirmed-action';

interface DeleteWebhookModalProps {
  endpoint: WebhookEndpointDto;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteWebhookModal({ endpoint, onClose, onDeleted }: DeleteWebhookModalProps) {
  const { failure, busy, confirm, close } = useConfirmedAction({
    run: () => api('DELETE', `/webhooks/${endpoint.id}`),
    onDone: onDeleted,
    onClose,
    failedText: m.error_unexpected,
  });

  return (
    <Modal title={m.webhook_delete_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p className="wrap-anywhere">{m.webhook_delete_question({ url: endpoint.url })}</p>
      <ModalActions
        confirm={m.webhook_delete()}
        tone="error"
        busy={busy}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
