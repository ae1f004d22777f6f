/** A user row as the API shows it: never the password hash. */
import { isLocale } from '~/shared/locale';
import type { PublicUser, SessionUser } from '~/shared/validation';
import type { User } from './models';

export type UserRow = Pick<
  User,
  | 'id'
  | 'username'
  | 'fullName'
  | 'email'
  | 'role'
  | 'isActive'
  | 'invited'
  | 'lastLogin'
  | 'createdAt'
>;

const toIso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

export function toPublicUser(user: UserRow): PublicUser {
  return {
    id: user.id,
    username: user.username,
    fullName: user.fullName,
    email: user.email,
    role: user.role,
    isActive: Boolean(user.isActive),
    invited: Boolean(user.invited),
    lastLogin: toIso(user.lastLogin),
    createdAt: toIso(user.createdAt)!,
  };
}

/** The User plus the saved language, as the signed-in request carries it. */
export function toSessionUser(user: UserRow & Pick<User, 'locale'>): SessionUser {
  return { ...toPublicUser(user), locale: isLocale(user.locale) ? user.locale : null };
}
