/** The admin's user list: all users or one role, with add, edit, reset and delete. */
import { useCallback, useEffect, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import { FEEDBACK_LONG_MS, type Role } from '~/shared/constants';
import type { Locale } from '~/shared/locale';
import type { ManagedUser } from '~/shared/two-factor';
import type { PublicUser } from '~/shared/validation';
import { DeleteUserModal } from './DeleteUserModal';
import { ResetPasswordModal } from './ResetPasswordModal';
import { ResetTwoFactorModal } from '../two-factor/ResetTwoFactorModal';
import { RevokeApiTokensModal } from './RevokeApiTokensModal';
import { RemovePasskeysModal } from './RemovePasskeysModal';
import { UserFormModal } from './UserFormModal';
import { UsersTable } from './UsersTable';
import { useConsigneeImport } from './use-consignee-import';
import { LocalDate } from '../common/LocalDate';
import { adoptLocale } from '../common/locale';
import { failureText } from '../common/failure-text';
import { PlusIcon, UsersIcon } from '../common/icons';
import { managementTitle } from './titles';
import { ReadyFieldset } from '../common/ReadyFieldset';

export interface UserManagementProps {
  locale: Locale;
  initialUsers: ManagedUser[];
  /** Only users of this role are listed. */
  roleFilter: Role | null;
  currentUserId: number;
  lastImportDate: string | null;
  /** The portal sends e-mail: users can be invited. */
  mailEnabled: boolean;
}

type OpenDialog =
  | { kind: 'create' }
  | { kind: 'edit'; user: PublicUser }
  | { kind: 'reset-password'; user: PublicUser }
  | { kind: 'reset-two-factor'; user: PublicUser }
  | { kind: 'revoke-api-tokens'; user: ManagedUser }
  | { kind: 'remove-passkeys'; user: ManagedUser }
  | { kind: 'delete'; user: PublicUser };

/** An object, so that the same text shown twice in a row restarts its timer. */
interface Notice {
  text: string;
}

export default function UserManagement({
  locale,
  initialUsers,
  roleFilter,
  currentUserId,
  lastImportDate,
  mailEnabled,
}: UserManagementProps) {
  adoptLocale(locale);
  const [users, setUsers] = useState(initialUsers);
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [actionFailure, setActionFailure] = useState<string | null>(null);
  const consigneeImport = useConsigneeImport(lastImportDate);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setUsers(await api('GET', '/auth/users'));
      setLoadFailure(null);
    } catch (error) {
      setLoadFailure(failureText(error, m.users_load_failed()));
    }
    setLoading(false);
  }, []);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), FEEDBACK_LONG_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const afterChange = () => {
    setDialog(null);
    void reload();
  };
  const closeDialog = () => setDialog(null);

  async function changeInvitation(user: PublicUser, change: 'resend' | 'revoke') {
    setActionFailure(null);
    try {
      await api(change === 'resend' ? 'POST' : 'DELETE', `/auth/users/${user.id}/invite`);
      setNotice({ text: change === 'resend' ? m.users_invite_resent() : m.users_invite_revoked() });
      void reload();
    } catch (error) {
      setActionFailure(failureText(error, m.users_invite_failed()));
    }
  }
  const listed = roleFilter ? users.filter((user) => user.role === roleFilter) : users;

  return (
    <ReadyFieldset>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <div className="flex items-center gap-3">
            <h1 className="text-2xl font-bold">{managementTitle(roleFilter)}</h1>
            {loading && (
              <span
                className="loading loading-spinner loading-sm opacity-70"
                role="status"
                aria-label={m.users_loading()}
              />
            )}
          </div>
          <p className="mt-1 text-sm opacity-70">
            {m.users_last_import()}{' '}
            {consigneeImport.lastImportDate ? (
              <LocalDate value={consigneeImport.lastImportDate} />
            ) : (
              m.users_never()
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className="btn btn-outline"
            onClick={consigneeImport.runImport}
            disabled={consigneeImport.importing}
          >
            {consigneeImport.importing && (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            )}
            {consigneeImport.importing ? m.users_importing() : m.users_import_consignees()}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setDialog({ kind: 'create' })}
          >
            <PlusIcon />
            {m.users_add_user()}
          </button>
        </div>
      </div>

      {consigneeImport.outcome && (
        <div
          role={consigneeImport.outcome.failed ? 'alert' : 'status'}
          className={`alert alert-soft mb-4 ${consigneeImport.outcome.failed ? 'alert-error' : 'alert-success'}`}
        >
          <span>{consigneeImport.outcome.text}</span>
        </div>
      )}

      {actionFailure && (
        <div role="alert" className="alert alert-error alert-soft mb-4">
          <span>{actionFailure}</span>
        </div>
      )}

      {notice && (
        <div role="status" className="alert alert-success alert-soft mb-4">
          <span>{notice.text}</span>
        </div>
      )}

      <section className="surface rounded-box border border-base-300" aria-label={m.users_list()}>
        {loadFailure ? (
          <div role="alert" className="flex flex-col items-center gap-3 px-6 py-12 text-center">
            <h2 className="text-lg font-semibold text-error">{m.users_load_error()}</h2>
            <p className="opacity-80">{loadFailure}</p>
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={reload}
              disabled={loading}
            >
              {m.users_try_again()}
            </button>
          </div>
        ) : listed.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
            <span className="opacity-50">
              <UsersIcon className="size-12" />
            </span>
            <h2 className="font-semibold">{m.users_empty()}</h2>
            <p className="text-sm opacity-70">{m.users_empty_hint()}</p>
          </div>
        ) : (
          <UsersTable
            users={listed}
            currentUserId={currentUserId}
            onEdit={(user) => setDialog({ kind: 'edit', user })}
            onResetPassword={(user) => setDialog({ kind: 'reset-password', user })}
            onResetTwoFactor={(user) => setDialog({ kind: 'reset-two-factor', user })}
            onRevokeApiTokens={(user) => setDialog({ kind: 'revoke-api-tokens', user })}
            onRemovePasskeys={(user) => setDialog({ kind: 'remove-passkeys', user })}
            onDelete={(user) => setDialog({ kind: 'delete', user })}
            onInvitation={changeInvitation}
          />
        )}
      </section>

      {dialog?.kind === 'create' && (
        <UserFormModal
          user={null}
          mailEnabled={mailEnabled}
          onClose={closeDialog}
          onSaved={(invited) => {
            if (invited) setNotice({ text: m.users_invite_sent() });
            afterChange();
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <UserFormModal
          user={dialog.user}
          mailEnabled={mailEnabled}
          onClose={closeDialog}
          onSaved={afterChange}
        />
      )}
      {dialog?.kind === 'reset-password' && (
        <ResetPasswordModal
          user={dialog.user}
          onClose={closeDialog}
          onReset={() => {
            setNotice({ text: m.users_password_reset() });
            afterChange();
          }}
        />
      )}
      {dialog?.kind === 'reset-two-factor' && (
        <ResetTwoFactorModal
          user={dialog.user}
          onClose={closeDialog}
          onReset={() => {
            setNotice({ text: m.twofactor_reset_done({ username: dialog.user.username }) });
            afterChange();
          }}
        />
      )}
      {dialog?.kind === 'revoke-api-tokens' && (
        <RevokeApiTokensModal
          user={dialog.user}
          onClose={closeDialog}
          onRevoked={(revoked) => {
            setNotice({ text: m.apitoken_admin_revoked({ count: revoked }) });
            afterChange();
          }}
        />
      )}
      {dialog?.kind === 'remove-passkeys' && (
        <RemovePasskeysModal
          user={dialog.user}
          onClose={closeDialog}
          onRemoved={() => {
            setNotice({ text: m.passkey_admin_removed({ username: dialog.user.username }) });
            afterChange();
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteUserModal user={dialog.user} onClose={closeDialog} onDeleted={afterChange} />
      )}
    </ReadyFieldset>
  );
}
