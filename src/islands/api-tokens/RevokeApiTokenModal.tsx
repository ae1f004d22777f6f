/** Profile Settings → API tokens: the confirmation before one of the user's tokens is revoked. */
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { ApiTokenSummary } from '~/shared/api-tokens';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { useConfirmedAction } from '../common/use-confirmed-action';
import { WithStrong } from '../users/WithStrong';

interface RevokeApiTokenModalProps {
  token: ApiTokenSummary;
  onClose: () => void;
  onRevoked: () => void;
}

export function RevokeApiTokenModal({ token, onClose, onRevoked }: RevokeApiTokenModalProps) {
  const { failure, busy, confirm, close } = useConfirmedAction({
    run: () => api('DELETE', `/auth/tokens/${token.id}`),
    onDone: onRevoked,
    onClose,
    failedText: m.apitoken_revoke_failed,
  });

  return (
    <Modal title={m.apitoken_revoke_title()} onClose={close}>
      <FailureAlert message={failure} />
      <p className="break-words">
        <WithStrong
          message={(name) => m.apitoken_revoke_question({ name, prefix: token.prefix })}
          value={token.name}
        />
      </p>
      <p className="mt-2 text-sm opacity-80">{m.apitoken_revoke_warning()}</p>
      <ModalActions
        confirm={m.apitoken_revoke_confirm()}
        tone="error"
        busy={busy}
        onCancel={close}
        onConfirm={confirm}
      />
    </Modal>
  );
}
