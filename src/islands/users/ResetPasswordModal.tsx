import { useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import {
  fieldErrors,
  resetPasswordSchema,
  type PublicUser,
  type ResetPasswordPayload,
} from '~/shared/validation';
import { failureText } from '../common/failure-text';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { TextField } from './fields';
import { WithStrong } from './WithStrong';

interface ResetPasswordModalProps {
  user: PublicUser;
  onClose: () => void;
  onReset: () => void;
}

export function ResetPasswordModal({ user, onClose, onReset }: ResetPasswordModalProps) {
  const [newPassword, setNewPassword] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const payload: ResetPasswordPayload = { newPassword };
    const parsed = resetPasswordSchema.safeParse(payload);
    if (!parsed.success) return setInvalid(fieldErrors(parsed.error).newPassword);
    setFailure(null);
    setSaving(true);
    try {
      await api('PUT', `/auth/users/${user.id}/reset-password`, payload);
      return onReset();
    } catch (error) {
      setFailure(failureText(error, m.users_reset_failed()));
    }
    setSaving(false);
  }

  const close = () => !saving && onClose();

  return (
    <Modal title={m.users_reset_title()} onClose={close}>
      <form onSubmit={submit} noValidate>
        <FailureAlert message={failure} />
        <p className="mb-2 text-sm opacity-80">
          <WithStrong
            message={(name) => m.users_reset_intro({ name })}
            value={user.fullName || user.username}
          />
        </p>
        <TextField
          label={m.users_reset_new_password()}
          type="password"
          value={newPassword}
          onChange={(event) => {
            setNewPassword(event.target.value);
            setInvalid(undefined);
          }}
          error={invalid}
          autoComplete="new-password"
          required
        />
        <ModalActions confirm={m.users_reset_title()} busy={saving} onCancel={close} />
      </form>
    </Modal>
  );
}
