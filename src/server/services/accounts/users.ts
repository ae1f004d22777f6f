/** Users: listing, creating, editing, resetting and deleting, with the rules that keep an admin around. */
import { UniqueConstraintError, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { Locale } from '~/shared/locale';
import type { Preferences, PreferencesChange } from '~/shared/preferences';
import { isStaffRole, type ManagedUser } from '~/shared/two-factor';
import {
  createUserSchema,
  type CreateUserInput,
  type PublicUser,
  type UpdateUserInput,
} from '~/shared/validation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Database } from '../../db/database';
import type { User } from '../../db/models';
import { toPublicUser } from '../../db/public-user';
import { AppError } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import {
  recordAudit,
  userTarget,
  type AuditActor,
  type AuditDeps,
  type AuditRecord,
} from '../audit';
import { generatePassword, type PasswordHasher } from './passwords';
import { endUserSessions } from './sessions';
import { endAccountTokens } from './account-tokens';
import { sendInvitation, type InvitationDeps } from './invitations';
import { countWorkingApiTokens, endUserApiTokens } from './api-tokens';
import { countPasskeys } from './passkeys/manage';
import { endAccessAfterReset, type AccountNoticeDeps } from './account-access';

export interface UserDeps {
  db: Database;
  clock: Clock;
  passwords: PasswordHasher;
}

const PUBLIC_COLUMNS = [
  'id',
  'username',
  'fullName',
  'email',
  'role',
  'isActive',
  'invited',
  'lastLogin',
  'createdAt',
] as const;

/**
 * Every user, with whether two-factor sign-in is in force for them (never while TWO_FACTOR=off) and
 * how many personal API tokens they have working and passkeys they hold.
 */
export async function listUsers({
  db,
  clock,
  config,
}: {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'twoFactor'>;
}): Promise<ManagedUser[]> {
  const apiTokens = await countWorkingApiTokens({ db, clock });
  const passkeys = await countPasskeys({ db });
  const rows = await db.models.User.findAll({
    attributes: [...PUBLIC_COLUMNS, 'twoFactorEnabledAt'],
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
    raw: true,
  });
  return rows.map((row) => ({
    ...toPublicUser(row),
    twoFactorEnabled: config.twoFactor !== 'off' && row.twoFactorEnabledAt !== null,
    apiTokens: apiTokens.get(row.id) ?? 0,
    passkeys: passkeys.get(row.id) ?? 0,
  }));
}

function usernameTaken(): AppError {
  const message = m.users_username_taken();
  return new AppError('CONFLICT', message, { details: [{ field: 'username', message }] });
}

/**
 * A user with a password the admin typed (an invitation is src/server/services/invitations.ts).
 * `actor` is the admin who creates the user; null when the portal itself does (the first admin, the demo customer).
 */
export async function createUser(
  deps: UserDeps,
  actor: AuditActor | null,
  payload: Omit<CreateUserInput, 'password' | 'invite' | 'locale'> & { password: string },
): Promise<PublicUser> {
  const { db, passwords } = deps;
  const passwordHash = await passwords.hash(payload.password);
  try {
    return await db.sequelize.transaction(async (transaction) => {
      const user = await db.models.User.create(
        {
          username: payload.username,
          fullName: payload.fullName,
          email: payload.email,
          role: payload.role,
          passwordHash,
          lastLogin: null,
        },
        { transaction },
      );
      if (actor)
        await recordAudit(
          deps,
          actor,
          {
            action: 'user.created',
            target: userTarget(user.username),
            detail: { role: user.role },
          },
          transaction,
        );
      return toPublicUser(user);
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError) throw usernameTaken();
    throw error;
  }
}

/**
 * The active admins other than this user. Their rows stay locked until the transaction ends, so two
 * admins removing each other at once take turns (PostgreSQL; SQLite's immediate transactions already
 * do), and the second sees the first's change.
 */
async function otherActiveAdmins(
  db: Database,
  userId: number,
  transaction: Transaction,
): Promise<number> {
  const admins = await db.models.User.findAll({
    attributes: ['id'],
    where: { role: 'admin', isActive: true },
    order: [['id', 'ASC']],
    lock: transaction.LOCK.UPDATE,
    transaction,
  });
  return admins.filter((admin) => admin.id !== userId).length;
}

async function loadForChange(db: Database, id: number, transaction: Transaction): Promise<User> {
  const user = await db.models.User.findByPk(id, { transaction });
  if (!user) throw new AppError('NOT_FOUND', m.users_not_found());
  return user;
}

/** What an edit changed, as audit entries: the role and the account's state each have their own. */
function editEntries(
  before: Pick<User, 'username' | 'fullName' | 'email' | 'role' | 'isActive'>,
  after: UpdateUserInput,
): AuditRecord[] {
  const target = userTarget(after.username);
  const entries: AuditRecord[] = [];
  const changed = (['username', 'fullName', 'email'] as const).filter(
    (field) => (before[field] ?? null) !== (after[field] ?? null),
  );
  if (changed.length) {
    const previousUsername = before.username !== after.username ? before.username : undefined;
    entries.push({ action: 'user.updated', target, detail: { changed, previousUsername } });
  }
  if (before.role !== after.role)
    entries.push({
      action: 'user.role-changed',
      target,
      detail: { previousRole: before.role, role: after.role },
    });
  if (before.isActive !== after.isActive)
    entries.push({ action: after.isActive ? 'user.enabled' : 'user.disabled', target });
  // A save that changed nothing was still an admin's action.
  return entries.length ? entries : [{ action: 'user.updated', target, detail: { changed: [] } }];
}

/**
 * An admin's edit. A change of the address, the role or the active state ends the user's reset and
 * invitation links: each was sent for the account as it was (a mistyped address, a role since taken
 * away). An invited user still active is sent a new invitation, at the address the account has now.
 */
export async function updateUser(
  deps: AuditDeps & InvitationDeps,
  actor: AuditActor,
  id: number,
  payload: UpdateUserInput,
): Promise<PublicUser> {
  const { db } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const user = await loadForChange(db, id, transaction);
    if (actor.id === id && !payload.isActive)
      throw new AppError('FORBIDDEN', m.users_cannot_deactivate_self());
    if (actor.id === id && payload.role !== user.role)
      throw new AppError('FORBIDDEN', m.users_cannot_change_own_role());
    const losesAdmin =
      user.role === 'admin' && user.isActive && (payload.role !== 'admin' || !payload.isActive);
    if (losesAdmin && (await otherActiveAdmins(db, id, transaction)) === 0) {
      throw new AppError('CONFLICT', m.users_last_admin_kept());
    }
    const deactivated = user.isActive && !payload.isActive;
    const leavesViewers = user.role === 'viewer' && payload.role !== 'viewer';
    // A promotion (to admin, or from customer to staff) ends the sessions: the next sign-in is
    // asked what TWO_FACTOR=required-for-admins asks of staff.
    const promoted =
      (payload.role === 'admin' && user.role !== 'admin') ||
      (isStaffRole(payload.role) && !isStaffRole(user.role));
    const endsLinks =
      (user.email ?? null) !== (payload.email ?? null) ||
      user.role !== payload.role ||
      user.isActive !== payload.isActive;
    const entries = editEntries(user, payload);
    try {
      await user.update(
        {
          username: payload.username,
          fullName: payload.fullName,
          email: payload.email,
          role: payload.role,
          isActive: payload.isActive,
        },
        { transaction },
      );
    } catch (error) {
      if (error instanceof UniqueConstraintError) throw usernameTaken();
      throw error;
    }
    if (promoted && !deactivated) await endUserSessions({ db }, id, { transaction });
    if (deactivated) {
      await endUserSessions({ db }, id, { transaction });
      const revoked = (await endUserApiTokens(deps, id, transaction)).length;
      if (revoked > 0)
        entries.push({
          action: 'api-tokens.revoked',
          target: userTarget(payload.username),
          detail: { count: revoked, reason: 'account disabled' },
        });
    }
    // Assignments only scope viewers: kept on another role they would come back unseen on a demotion.
    if (leavesViewers)
      await db.models.ConsigneeAssignment.destroy({ where: { userId: id }, transaction });
    if (endsLinks) {
      await endAccountTokens(deps, id, 'password-reset', transaction);
      await endAccountTokens(deps, id, 'invitation', transaction);
      if (user.invited && user.isActive && user.email && deps.mailer.enabled) {
        await sendInvitation(deps, user, transaction);
        entries.push({
          action: 'user.invitation-resent',
          target: userTarget(user.username),
          detail: { reason: 'after the edit' },
        });
      }
    }
    for (const entry of entries) await recordAudit(deps, actor, entry, transaction);
    return toPublicUser(user);
  });
}

/** The admin sets a user's password: whoever held the account is out (sessions, API tokens), and the user is told. */
export async function resetPassword(
  deps: UserDeps & AccountNoticeDeps,
  actor: AuditActor,
  id: number,
  newPassword: string,
): Promise<void> {
  const { db, passwords } = deps;
  const passwordHash = await passwords.hash(newPassword);
  await db.sequelize.transaction(async (transaction) => {
    const user = await loadForChange(db, id, transaction);
    // A password set by the admin serves an invitation's purpose too: its link stops working; so does a reset link.
    await user.update({ passwordHash, invited: false }, { transaction });
    await endAccountTokens(deps, id, 'invitation', transaction);
    await endAccountTokens(deps, id, 'password-reset', transaction);
    const revoked = await endAccessAfterReset(deps, user, 'admin', transaction);
    await recordAudit(
      deps,
      actor,
      {
        action: 'user.password-reset',
        target: userTarget(user.username),
        detail: { sessionsEnded: true, apiTokensRevoked: revoked.length },
      },
      transaction,
    );
  });
}

export async function deleteUser(deps: AuditDeps, actor: AuditActor, id: number): Promise<void> {
  const { db } = deps;
  await db.sequelize.transaction(async (transaction) => {
    const user = await loadForChange(db, id, transaction);
    if (actor.id === id) throw new AppError('FORBIDDEN', m.users_cannot_delete_self());
    if (
      user.role === 'admin' &&
      user.isActive &&
      (await otherActiveAdmins(db, id, transaction)) === 0
    ) {
      throw new AppError('CONFLICT', m.users_last_admin_not_deleted());
    }
    await endUserSessions({ db }, id, { transaction });
    await db.models.ConsigneeAssignment.destroy({ where: { userId: id }, transaction });
    await db.models.ApiToken.destroy({ where: { userId: id }, transaction });
    await user.destroy({ transaction });
    await recordAudit(
      deps,
      actor,
      { action: 'user.deleted', target: userTarget(user.username), detail: { role: user.role } },
      transaction,
    );
  });
}

/**
 * On start with no admin in the database, creates one from ADMIN_USERNAME / ADMIN_PASSWORD, or with a
 * generated password that is printed once.
 */
export async function ensureFirstAdmin(
  deps: UserDeps & { config: Pick<Config, 'adminUsername' | 'adminPassword'>; log: Logger },
): Promise<void> {
  const { db, config } = deps;
  if ((await db.models.User.count({ where: { role: 'admin' } })) > 0) return;
  const password = config.adminPassword ?? generatePassword();
  // The same rules as any user: an admin the login form would refuse is no admin at all.
  const checked = createUserSchema.safeParse({
    username: config.adminUsername,
    password,
    fullName: 'Administrator',
    role: 'admin',
  });
  if (!checked.success) {
    throw new Error(
      `ADMIN_USERNAME / ADMIN_PASSWORD: ${checked.error.issues.map((issue) => issue.message).join('; ')}`,
    );
  }
  const { username } = checked.data;
  if (await db.models.User.findOne({ where: { username } })) {
    throw new Error(
      `No admin exists and the username "${username}" belongs to another user: set ADMIN_USERNAME to a free name.`,
    );
  }
  await createUser(deps, null, { ...checked.data, password });
  if (config.adminPassword) {
    deps.log.info(
      { component: 'startup' },
      `First admin "${username}" created with the password from ADMIN_PASSWORD.`,
    );
  } else {
    // The one line that carries a password on purpose: there is no other way to hand it over.
    deps.log.warn(
      { component: 'startup' },
      `First admin created. Sign in with username: ${username} password: ${password} ` +
        '(shown only once: change it under Profile Settings)',
    );
  }
}

/** The stored preferences; the language is the request's when the user never chose one. */
export async function readPreferences(
  { db }: { db: Database },
  userId: number,
  requestLocale: Locale,
): Promise<Preferences> {
  const user = await db.models.User.findByPk(userId, {
    attributes: ['locale', 'statusEmails'],
    raw: true,
  });
  return { locale: user?.locale ?? requestLocale, statusEmails: Boolean(user?.statusEmails) };
}

/**
 * Changes the named preferences. Status e-mails can be switched on only where the portal sends mail
 * and the user has an address to send to.
 */
export async function savePreferences(
  { db, mailer }: { db: Database; mailer: Pick<Mailer, 'enabled'> },
  userId: number,
  change: PreferencesChange,
  requestLocale: Locale,
): Promise<Preferences> {
  const user = await db.models.User.findByPk(userId);
  if (!user) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  if (change.statusEmails) {
    const refusal = !mailer.enabled
      ? m.preferences_mail_off()
      : !user.email
        ? m.preferences_email_required()
        : null;
    if (refusal)
      throw new AppError('VALIDATION_ERROR', refusal, {
        details: [{ field: 'statusEmails', message: refusal }],
      });
  }
  await user.update(change);
  return { locale: user.locale ?? requestLocale, statusEmails: user.statusEmails };
}
