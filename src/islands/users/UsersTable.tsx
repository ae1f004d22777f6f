import { m } from '~/paraglide/messages.js';
import type { Role } from '~/shared/constants';
import { roleLabel } from '~/shared/format';
import type { ManagedUser } from '~/shared/two-factor';
import type { PublicUser } from '~/shared/validation';
import { LocalDate } from '../common/LocalDate';
import {
  ApiTokensOffIcon,
  KeyIcon,
  MailCrossedIcon,
  MailIcon,
  PasskeysOffIcon,
  PencilIcon,
  ShieldOffIcon,
  TrashIcon,
} from '../common/icons';

const ROLE_BADGE: Record<Role, string> = {
  admin: 'badge-primary',
  'admin-viewer': 'badge-secondary',
  viewer: 'badge-accent',
};

interface UsersTableProps {
  users: ManagedUser[];
  currentUserId: number;
  onEdit: (user: PublicUser) => void;
  onResetPassword: (user: PublicUser) => void;
  onResetTwoFactor: (user: PublicUser) => void;
  onRevokeApiTokens: (user: ManagedUser) => void;
  onRemovePasskeys: (user: ManagedUser) => void;
  onDelete: (user: PublicUser) => void;
  /** Sends an invited user's invitation again, or revokes it. */
  onInvitation: (user: PublicUser, change: 'resend' | 'revoke') => void;
}

function initials(user: PublicUser): string {
  const words = (user.fullName || user.username).trim().split(/\s+/);
  return words
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

export function UsersTable({
  users,
  currentUserId,
  onEdit,
  onResetPassword,
  onResetTwoFactor,
  onRevokeApiTokens,
  onRemovePasskeys,
  onDelete,
  onInvitation,
}: UsersTableProps) {
  return (
    <div className="overflow-x-auto">
      <table className="table table-pinned">
        <thead>
          <tr>
            <th scope="col">{m.users_column_user()}</th>
            <th scope="col">{m.users_column_role()}</th>
            <th scope="col">{m.users_column_status()}</th>
            <th scope="col">{m.users_column_last_login()}</th>
            <th scope="col">{m.users_column_created()}</th>
            <th scope="col" className="text-right">
              {m.users_column_actions()}
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} className="hover:bg-base-content/5">
              <td>
                <div className="flex items-center gap-3">
                  <div className="avatar avatar-placeholder" aria-hidden="true">
                    <div className="w-10 rounded-full bg-neutral text-neutral-content">
                      <span className="text-sm">{initials(user)}</span>
                    </div>
                  </div>
                  <div className="min-w-0">
                    <div className="flex items-center gap-2 font-semibold">
                      <span className="truncate">{user.fullName || user.username}</span>
                      {user.id === currentUserId && (
                        <span className="badge badge-ghost badge-xs">{m.users_you()}</span>
                      )}
                    </div>
                    <div className="text-sm opacity-70">{user.username}</div>
                    {user.email && <div className="truncate text-sm opacity-60">{user.email}</div>}
                  </div>
                </div>
              </td>
              <td>
                <span className={`badge badge-soft whitespace-nowrap ${ROLE_BADGE[user.role]}`}>
                  {roleLabel(user.role)}
                </span>
              </td>
              <td>
                {user.invited ? (
                  <span className="badge badge-soft badge-warning">{m.users_invited()}</span>
                ) : (
                  <span
                    className={`badge badge-soft ${user.isActive ? 'badge-success' : 'badge-error'}`}
                  >
                    {user.isActive ? m.users_active() : m.users_inactive()}
                  </span>
                )}
                {user.twoFactorEnabled && (
                  <span className="badge badge-soft badge-info ml-1 whitespace-nowrap">
                    {m.twofactor_badge()}
                  </span>
                )}
                {user.apiTokens > 0 && (
                  <span className="badge badge-ghost ml-1 whitespace-nowrap">
                    {m.apitoken_admin_badge({ count: user.apiTokens })}
                  </span>
                )}
                {user.passkeys > 0 && (
                  <span className="badge badge-ghost ml-1 whitespace-nowrap">
                    {m.passkey_badge({ count: user.passkeys })}
                  </span>
                )}
              </td>
              <td className="whitespace-nowrap">
                {user.lastLogin ? <LocalDate value={user.lastLogin} /> : m.users_never()}
              </td>
              <td className="whitespace-nowrap">
                <LocalDate value={user.createdAt} />
              </td>
              <td>
                <div className="flex justify-end gap-1">
                  {user.invited && (
                    <>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm btn-square"
                        aria-label={m.users_invite_resend_named({ username: user.username })}
                        title={m.users_invite_resend()}
                        onClick={() => onInvitation(user, 'resend')}
                      >
                        <MailIcon />
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm btn-square"
                        aria-label={m.users_invite_revoke_named({ username: user.username })}
                        title={m.users_invite_revoke()}
                        onClick={() => onInvitation(user, 'revoke')}
                      >
                        <MailCrossedIcon />
                      </button>
                    </>
                  )}
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm btn-square"
                    aria-label={m.users_edit_named({ username: user.username })}
                    title={m.users_edit()}
                    onClick={() => onEdit(user)}
                  >
                    <PencilIcon />
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm btn-square"
                    aria-label={m.users_reset_password_named({ username: user.username })}
                    title={m.users_reset_password()}
                    onClick={() => onResetPassword(user)}
                  >
                    <KeyIcon />
                  </button>
                  {user.twoFactorEnabled && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm btn-square"
                      aria-label={m.twofactor_reset_named({ username: user.username })}
                      title={m.twofactor_turn_off()}
                      onClick={() => onResetTwoFactor(user)}
                    >
                      <ShieldOffIcon />
                    </button>
                  )}
                  {user.apiTokens > 0 && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm btn-square"
                      aria-label={m.apitoken_admin_revoke_named({ username: user.username })}
                      title={m.apitoken_admin_revoke_title()}
                      onClick={() => onRevokeApiTokens(user)}
                    >
                      <ApiTokensOffIcon />
                    </button>
                  )}
                  {user.passkeys > 0 && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm btn-square"
                      aria-label={m.passkey_admin_remove_named({ username: user.username })}
                      title={m.passkey_admin_remove_title()}
                      onClick={() => onRemovePasskeys(user)}
                    >
                      <PasskeysOffIcon />
                    </button>
                  )}
                  {/* One's own account cannot be deleted (the server refuses too): not offered, with the reason. */}
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm btn-square text-error"
                    aria-label={m.users_delete_named({ username: user.username })}
                    title={
                      user.id === currentUserId ? m.users_cannot_delete_self() : m.users_delete()
                    }
                    disabled={user.id === currentUserId}
                    onClick={() => onDelete(user)}
                  >
                    <TrashIcon />
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
