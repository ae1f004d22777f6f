import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { PublicUser } from '~/shared/validation';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { useConfirmedAction } from '../common/use-confirmed-action';
import { WithStrong } from './WithStrong';

interface DeleteUserModalProps {
  user: PublicUser;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteUserModal({ user, onClose, onDeleted }: DeleteUserModalProps) {
  const { failure, busy, confirm, close } = useConfirmedAction({
    run: () => api('DELETE', `/auth/users/${user.id}`),
    onDone: onDeleted,
    onClose,
    failedText: m.users_delete_failed,
  });

  return (
    <Modal title={m.users_delete_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p>
        <WithStrong
          message={(username) => m.users_delete_question({ username })}
          value={user.username}
        />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.users_delete_warning()}</p>
      <ModalActions
        confirm={m.users_delete_title()}
        tone="error"
        busy={busy}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
