/** User Management: an admin revokes every API token of a user (a token leaked, a system retired). */
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { ManagedUser } from '~/shared/two-factor';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { useConfirmedAction } from '../common/use-confirmed-action';
import { WithStrong } from './WithStrong';

interface RevokeApiTokensModalProps {
  user: ManagedUser;
  onClose: () => void;
  onRevoked: (revoked: number) => void;
}

export function RevokeApiTokensModal({ user, onClose, onRevoked }: RevokeApiTokensModalProps) {
  const { failure, busy, confirm, close } = useConfirmedAction({
    run: () => api('DELETE', `/auth/users/${user.id}/tokens`),
    onDone: ({ revoked }) => onRevoked(revoked),
    onClose,
    failedText: m.apitoken_admin_revoke_failed,
  });

  return (
    <Modal title={m.apitoken_admin_revoke_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p>
        <WithStrong
          message={(username) => m.apitoken_admin_revoke_question({ username })}
          value={user.username}
        />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.apitoken_admin_revoke_warning()}</p>
      <ModalActions
        confirm={m.apitoken_admin_revoke_confirm()}
        tone="error"
        busy={busy}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
