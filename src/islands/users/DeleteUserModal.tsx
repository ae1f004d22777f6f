import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { PublicUser } from '~/shared/validation';
import { failureText } from '../common/failure-text';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { WithStrong } from './WithStrong';

interface DeleteUserModalProps {
  user: PublicUser;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteUserModal({ user, onClose, onDeleted }: DeleteUserModalProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    setFailure(null);
    setDeleting(true);
    try {
      await api('DELETE', `/auth/users/${user.id}`);
      return onDeleted();
    } catch (error) {
      setFailure(failureText(error, m.users_delete_failed()));
    }
    setDeleting(false);
  }

  const close = () => !deleting && onClose();

  return (
    <Modal title={m.users_delete_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p>
        <WithStrong message={(username) => m.users_delete_question({ username })} value={user.username} />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.users_delete_warning()}</p>
      <ModalActions confirm={m.users_delete_title()} tone="error" busy={deleting} onCancel={close} onConfirm={confirm} />
    </Modal>
  );
}
