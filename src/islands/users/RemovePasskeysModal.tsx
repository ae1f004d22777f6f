/** User Management: an admin removes every passkey of a user (the device they were on is lost). */
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { ManagedUser } from '~/shared/two-factor';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { useConfirmedAction } from '../common/use-confirmed-action';
import { WithStrong } from './WithStrong';

interface RemovePasskeysModalProps {
  user: ManagedUser;
  onClose: () => void;
  onRemoved: () => void;
}

export function RemovePasskeysModal({ user, onClose, onRemoved }: RemovePasskeysModalProps) {
  const { failure, busy, confirm, close } = useConfirmedAction({
    run: () => api('DELETE', `/auth/users/${user.id}/passkeys`),
    onDone: onRemoved,
    onClose,
    failedText: m.passkey_admin_remove_failed,
  });

  return (
    <Modal title={m.passkey_admin_remove_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p>
        <WithStrong
          message={(username) => m.passkey_admin_remove_question({ username })}
          value={user.username}
        />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.passkey_admin_remove_warning()}</p>
      <ModalActions
        confirm={m.passkey_admin_remove_title()}
        tone="error"
        busy={busy}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
