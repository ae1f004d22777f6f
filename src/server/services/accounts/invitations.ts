/**
 * Invitations: an admin creates a user without a password, and the user gets an e-mail with a link to
 * choose one (7 days, once). Until then the account is `invited` and cannot sign in. The admin can send
 * the link again (the earlier one stops working) or revoke it.
 */
import { randomBytes } from 'node:crypto';
import { UniqueConstraintError, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { getLocale } from '~/paraglide/runtime.js';
import type { TokenPasswordPayload } from '~/shared/accounts';
import { baseLocale, isLocale } from '~/shared/locale';
import type { CreateUserInput, PublicUser } from '~/shared/validation';
import type { User } from '../../db/models';
import { toPublicUser } from '../../db/public-user';
import { AppError } from '../../errors';
import { inLocale } from '../../locale';
import type { Mailer } from '../../mail/mailer';
import { composeLinkEmail, linkInEmail } from '../../mail/compose';
import {
  endAccountTokens,
  findAccountTokenOwner,
  issueAccountToken,
  redeemAccountToken,
} from './account-tokens';
import { recordAudit, selfActor, userTarget, type AuditActor } from '../audit';
import { enqueueMessages } from '../outbox';
import type { PasswordResetDeps } from './password-reset';

export const INVITATION_DAYS = 7;

export interface InvitationDeps extends PasswordResetDeps {
  mailer: Pick<Mailer, 'enabled'>;
}

function requireMail({ mailer }: Pick<InvitationDeps, 'mailer'>): void {
  if (!mailer.enabled) throw new AppError('VALIDATION_ERROR', m.users_invite_needs_smtp());
}

/** Queues the invitation e-mail with a new link, in the invited user's language; the earlier link stops working. */
export async function sendInvitation(
  deps: InvitationDeps,
  user: User,
  transaction?: Transaction,
): Promise<void> {
  const { config } = deps;
  const token = await issueAccountToken(
    deps,
    user.id,
    'invitation',
    INVITATION_DAYS * 86_400_000,
    transaction,
  );
  const mail = inLocale(isLocale(user.locale) ? user.locale : baseLocale, () =>
    composeLinkEmail({
      subject: m.email_invite_subject({ product: config.productName }),
      greeting: m.email_greeting({ name: user.fullName || user.username }),
      intro: m.email_invite_intro({ username: user.username, product: config.productName }),
      linkText: m.email_invite_link(),
      url: linkInEmail(config.publicUrl, `/invite/${token}`),
      note: m.email_invite_note({ days: INVITATION_DAYS }),
    }),
  );
  await enqueueMessages(
    deps,
    [{ ...mail, to: user.email!, userId: user.id, unsubscribeUrl: null }],
    transaction,
  );
}

/**
 * Creates the user as invited and sends the link, in the language the admin chose for it (else the
 * admin's own), which becomes the user's until they choose another.
 */
export async function inviteUser(
  deps: InvitationDeps,
  actor: AuditActor,
  payload: CreateUserInput,
): Promise<PublicUser> {
  requireMail(deps);
  const { db, passwords } = deps;
  // Nobody knows this password: the account opens only through the link.
  const passwordHash = await passwords.hash(randomBytes(32).toString('base64url'));
  let user: User;
  try {
    user = await db.models.User.create({
      username: payload.username,
      fullName: payload.fullName,
      email: payload.email,
      role: payload.role,
      passwordHash,
      lastLogin: null,
      invited: true,
      locale: payload.locale ?? getLocale(),
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError) {
      const message = m.users_username_taken();
      throw new AppError('CONFLICT', message, { details: [{ field: 'username', message }] });
    }
    throw error;
  }
  await sendInvitation(deps, user);
  await recordAudit(deps, actor, {
    action: 'user.invited',
    target: userTarget(user.username),
    detail: { role: user.role },
  });
  return toPublicUser(user);
}

async function loadInvited(deps: InvitationDeps, id: number): Promise<User> {
  const user = await deps.db.models.User.findByPk(id);
  if (!user) throw new AppError('NOT_FOUND', m.users_not_found());
  if (!user.invited) throw new AppError('CONFLICT', m.users_invite_already_accepted());
  return user;
}

/** A new link for a user still invited; the earlier one stops working. */
export async function resendInvitation(
  deps: InvitationDeps,
  actor: AuditActor,
  id: number,
): Promise<PublicUser> {
  requireMail(deps);
  const user = await loadInvited(deps, id);
  if (!user.email) throw new AppError('VALIDATION_ERROR', m.users_invite_needs_email());
  await sendInvitation(deps, user);
  await recordAudit(deps, actor, {
    action: 'user.invitation-resent',
    target: userTarget(user.username),
  });
  return toPublicUser(user);
}

/** The link stops working; the user stays invited, to be sent a new one or deleted. */
export async function revokeInvitation(
  deps: InvitationDeps,
  actor: AuditActor,
  id: number,
): Promise<PublicUser> {
  const user = await loadInvited(deps, id);
  await endAccountTokens(deps, user.id, 'invitation');
  await recordAudit(deps, actor, {
    action: 'user.invitation-revoked',
    target: userTarget(user.username),
  });
  return toPublicUser(user);
}

/** A link that does not work (unknown, used, replaced, revoked or expired), refused on its `token` field. */
function invitationLinkEnded(): AppError {
  const message = m.account_invite_link_invalid();
  return new AppError('VALIDATION_ERROR', message, { details: [{ field: 'token', message }] });
}

/**
 * The invited user chooses a password with the link's token, once; then they can sign in. As a reset:
 * the token is looked up before anything is hashed, under the address's limits of sign-in.
 */
export async function acceptInvitation(
  deps: InvitationDeps,
  payload: TokenPasswordPayload,
  clientAddress: string,
): Promise<void> {
  const { db, passwords } = deps;
  const done = await deps.loginLimiter.checkTokenAttempt(clientAddress, async () => {
    if ((await findAccountTokenOwner(deps, payload.token, 'invitation')) === null) return null;
    const passwordHash = await passwords.hash(payload.newPassword, clientAddress);
    return db.sequelize.transaction(async (transaction) => {
      const userId = await redeemAccountToken(deps, payload.token, 'invitation', transaction);
      const user = userId === null ? null : await db.models.User.findByPk(userId, { transaction });
      if (!user || !user.invited) throw invitationLinkEnded();
      await user.update({ passwordHash, invited: false }, { transaction });
      await recordAudit(
        deps,
        selfActor(user, clientAddress),
        { action: 'user.invitation-accepted', target: userTarget(user.username) },
        transaction,
      );
      return true;
    });
  });
  if (!done) throw invitationLinkEnded();
}

/** The invited user's username while the invitation still works; null otherwise. */
export async function findInvitedUsername(
  deps: Pick<InvitationDeps, 'db' | 'clock'>,
  token: string,
): Promise<string | null> {
  const userId = await findAccountTokenOwner(deps, token, 'invitation');
  const user =
    userId === null
      ? null
      : await deps.db.models.User.findByPk(userId, { attributes: ['username', 'invited'] });
  return user?.invited ? user.username : null;
}
