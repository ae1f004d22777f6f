import { useState } from 'react';
import { api } from '~/shared/api-client';
import type { PublicUser } from '~/shared/validation';
import { failureText } from '../common/failure-text';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';

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
      setFailure(failureText(error, 'Failed to delete user'));
    }
    setDeleting(false);
  }

  const close = () => !deleting && onClose();

  return (
    <Modal title="Delete User" onClose={close}>
      <FailureAlert message={failure} />
      <p>
        Are you sure you want to delete <strong>{user.username}</strong>?
      </p>
      <p className="mt-2 text-sm opacity-80">
        This permanently deletes the user account and removes all associated data. This action cannot be undone.
      </p>
      <ModalActions confirm="Delete User" tone="error" busy={deleting} onCancel={close} onConfirm={confirm} />
    </Modal>
  );
}
