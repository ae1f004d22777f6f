import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import type { TokenClearResult } from '~/shared/tokens';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';

interface ClearTokensModalProps {
  onClose: () => void;
  onCleared: (result: TokenClearResult) => void;
}

/** Clear tokens: asks first; the provider revokes the tokens when it can. */
export function ClearTokensModal({ onClose, onCleared }: ClearTokensModalProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);

  async function confirm() {
    setFailure(null);
    setClearing(true);
    try {
      return onCleared(await api('DELETE', '/tokens/clear'));
    } catch (error) {
      setFailure(errorText(error));
    }
    setClearing(false);
  }

  const close = () => !clearing && onClose();

  return (
    <Modal title={m.tokens_clear_button()} onClose={close}>
      <FailureAlert message={failure} />
      <p>{m.tokens_clear_confirm()}</p>
      <ModalActions
        confirm={m.tokens_clear_button()}
        tone="error"
        busy={clearing}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
