/** User Management: an admin revokes every API token of a user (a token leaked, a system retired). */
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { RevokedApiTokens } from '~/shared/api-tokens';
import type { ManagedUser } from '~/shared/two-factor';
import { failureText } from '../common/failure-text';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { WithStrong } from './WithStrong';

interface RevokeApiTokensModalProps {
  user: ManagedUser;
  onClose: () => void;
  onRevoked: (revoked: number) => void;
}

export function RevokeApiTokensModal({ user, onClose, onRevoked }: RevokeApiTokensModalProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setFailure(null);
    setBusy(true);
    try {
      const { revoked } = await api<RevokedApiTokens>('DELETE', `/auth/users/${user.id}/tokens`);
      return onRevoked(revoked);
    } catch (error) {
      setFailure(failureText(error, m.apitoken_admin_revoke_failed()));
    }
    setBusy(false);
  }

  const close = () => !busy && onClose();

  return (
    <Modal title={m.apitoken_admin_revoke_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p>
        <WithStrong message={(username) => m.apitoken_admin_revoke_question({ username })} value={user.username} />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.apitoken_admin_revoke_warning()}</p>
      <ModalActions confirm={m.apitoken_admin_revoke_confirm()} tone="error" busy={busy} onCancel={close} onConfirm={confirm} />
    </Modal>
  );
}
