/**
 * Taking an account back: after a password is reset (by its link or by an admin) nothing opened with
 * the old one may stay open, so every session ends and every personal API token is revoked, and the
 * user is told by e-mail, with the tokens named, so that they can see what to make again.
 */
import type { Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { baseLocale, isLocale } from '~/shared/locale';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { User } from '../../db/models';
import { inLocale } from '../../locale';
import { composeNoticeEmail } from '../../mail/compose';
import type { Mailer } from '../../mail/mailer';
import { recordAudit, type AuditActor, type AuditRecord } from '../audit';
import { AppError } from '../../errors';
import { endUserApiTokens, type RevokedApiToken } from './api-tokens';
import { enqueueMessages, type Outbox } from '../outbox';
import { endUserSessions } from './sessions';

export interface AccountNoticeDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'productName'>;
  mailer: Pick<Mailer, 'enabled'>;
  outbox: Outbox;
}

/** The account as a notice addresses it. */
type NoticeRecipient = Pick<User, 'id' | 'username' | 'fullName' | 'email' | 'locale'>;

/** Writes an e-mail to the user in their language, where the portal sends mail and the user has an address. */
export async function mailAccountNotice(
  deps: AccountNoticeDeps,
  user: NoticeRecipient,
  compose: (greeting: string) => { subject: string; text: string; html: string },
  transaction?: Transaction,
): Promise<void> {
  if (!deps.mailer.enabled || !user.email) return;
  const mail = inLocale(isLocale(user.locale) ? user.locale : baseLocale, () =>
    compose(m.email_greeting({ name: user.fullName || user.username })),
  );
  await enqueueMessages(
    deps,
    [{ ...mail, to: user.email, userId: user.id, unsubscribeUrl: null }],
    transaction,
  );
}

/** What an admin's removal of a user's second sign-in method (a lost phone) clears, records and says. */
export interface SignInMethodRemoval {
  /** Clears the method in the transaction: whether the user had any, and the audit entry to record. */
  clear: (
    account: User,
    transaction: Transaction,
  ) => Promise<{ hadAny: boolean; entry: AuditRecord }>;
  /** The e-mail's subject and first paragraph. */
  notice: (names: { username: string; product: string }) => { subject: string; intro: string };
}

/**
 * An admin removes a second sign-in method of a user in one transaction: cleared, audited, and the user
 * told by e-mail when they had one. Answers the username.
 */
export async function removeSignInMethod(
  deps: AccountNoticeDeps,
  actor: AuditActor,
  userId: number,
  removal: SignInMethodRemoval,
): Promise<string> {
  return deps.db.sequelize.transaction(async (transaction) => {
    const account = await deps.db.models.User.findByPk(userId, { transaction });
    if (!account) throw new AppError('NOT_FOUND', m.users_not_found());
    const { hadAny, entry } = await removal.clear(account, transaction);
    await recordAudit(deps, actor, entry, transaction);
    if (hadAny) {
      const { subject, intro } = removal.notice({
        username: account.username,
        product: deps.config.productName,
      });
      await mailAccountNotice(
        deps,
        account,
        (greeting) =>
          composeNoticeEmail({
            subject,
            greeting,
            paragraphs: [intro],
            note: m.email_password_reset_note(),
          }),
        transaction,
      );
    }
    return account.username;
  });
}

/**
 * Ends every session and revokes every API token of a user whose password was just reset, in the
 * reset's transaction, and mails them what ended. Answers the tokens revoked.
 */
export async function endAccessAfterReset(
  deps: AccountNoticeDeps,
  user: NoticeRecipient,
  by: 'link' | 'admin',
  transaction: Transaction,
): Promise<RevokedApiToken[]> {
  await endUserSessions(deps, user.id, { transaction });
  const revoked = await endUserApiTokens(deps, user.id, transaction);
  const { productName: product } = deps.config;
  await mailAccountNotice(
    deps,
    user,
    (greeting) =>
      composeNoticeEmail({
        subject: m.email_password_reset_subject({ product }),
        greeting,
        paragraphs: [
          by === 'link'
            ? m.email_password_reset_by_link({ username: user.username, product })
            : m.email_password_reset_by_admin({ username: user.username, product }),
          m.email_password_reset_sessions(),
          revoked.length ? m.email_password_reset_tokens() : m.email_password_reset_no_tokens(),
        ],
        items: revoked.map((token) => `${token.name} (${token.prefix}…)`),
        note: m.email_password_reset_note(),
      }),
    transaction,
  );
  return revoked;
}
