import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { WebhookEndpointDto } from '~/shared/webhooks';
import { failureText } from '../common/failure-text';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';

interface DeleteWebhookModalProps {
  endpoint: WebhookEndpointDto;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteWebhookModal({ endpoint, onClose, onDeleted }: DeleteWebhookModalProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    setFailure(null);
    setDeleting(true);
    try {
      await api('DELETE', `/webhooks/${endpoint.id}`);
      return onDeleted();
    } catch (error) {
      setFailure(failureText(error, m.error_unexpected()));
    }
    setDeleting(false);
  }

  const close = () => !deleting && onClose();

  return (
    <Modal title={m.webhook_delete_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p className="wrap-anywhere">{m.webhook_delete_question({ url: endpoint.url })}</p>
      <ModalActions confirm={m.webhook_delete()} tone="error" busy={deleting} onCancel={close} onConfirm={confirm} />
    </Modal>
  );
}
