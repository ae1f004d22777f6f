/** User Management: an admin turns a user's two-factor sign-in off (a lost phone and lost recovery codes). */
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { PublicUser } from '~/shared/validation';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { useConfirmedAction } from '../common/use-confirmed-action';
import { WithStrong } from '../users/WithStrong';

interface ResetTwoFactorModalProps {
  user: PublicUser;
  onClose: () => void;
  onReset: () => void;
}

export function ResetTwoFactorModal({ user, onClose, onReset }: ResetTwoFactorModalProps) {
  const { failure, busy, confirm, close } = useConfirmedAction({
    run: () => api('DELETE', `/auth/users/${user.id}/2fa`),
    onDone: onReset,
    onClose,
    failedText: m.twofactor_reset_failed,
  });

  return (
    <Modal title={m.twofactor_turn_off()} onClose={close}>
      <FailureAlert message={failure} />
      <p>
        <WithStrong
          message={(username) => m.twofactor_reset_question({ username })}
          value={user.username}
        />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.twofactor_reset_warning()}</p>
      <ModalActions
        confirm={m.twofactor_turn_off()}
        tone="error"
        busy={busy}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
