/** User Management: an admin turns a user's two-factor sign-in off (a lost phone and lost recovery codes). */
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { PublicUser } from '~/shared/validation';
import { failureText } from '../common/failure-text';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { WithStrong } from '../users/WithStrong';

interface ResetTwoFactorModalProps {
  user: PublicUser;
  onClose: () => void;
  onReset: () => void;
}

export function ResetTwoFactorModal({ user, onClose, onReset }: ResetTwoFactorModalProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setFailure(null);
    setBusy(true);
    try {
      await api('DELETE', `/auth/users/${user.id}/2fa`);
      return onReset();
    } catch (error) {
      setFailure(failureText(error, m.twofactor_reset_failed()));
    }
    setBusy(false);
  }

  const close = () => !busy && onClose();

  return (
    <Modal title={m.twofactor_turn_off()} onClose={close}>
      <FailureAlert message={failure} />
      <p>
        <WithStrong message={(username) => m.twofactor_reset_question({ username })} value={user.username} />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.twofactor_reset_warning()}</p>
      <ModalActions confirm={m.twofactor_turn_off()} tone="error" busy={busy} onCancel={close} onConfirm={confirm} />
    </Modal>
  );
}
