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
