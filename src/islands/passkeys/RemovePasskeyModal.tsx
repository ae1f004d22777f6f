/** Profile Settings: removing one of one's passkeys, after a confirmation; it stops working at once. */
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { PasskeyView } from '~/shared/passkeys';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { useConfirmedAction } from '../common/use-confirmed-action';

interface RemovePasskeyModalProps {
  passkey: PasskeyView;
  onClose: () => void;
  onRemoved: () => void;
}

export function RemovePasskeyModal({ passkey, onClose, onRemoved }: RemovePasskeyModalProps) {
  const { failure, busy, confirm, close } = useConfirmedAction({
    run: () => api('DELETE', `/auth/passkeys/${passkey.id}`),
    onDone: onRemoved,
    onClose,
    failedText: m.passkey_remove_failed,
  });

  return (
    <Modal title={m.passkey_remove()} onClose={close}>
      <FailureAlert message={failure} />
      <p className="break-words">{m.passkey_remove_question({ name: passkey.name })}</p>
      <ModalActions
        confirm={m.passkey_remove()}
        tone="error"
        busy={busy}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
