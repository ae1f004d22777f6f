/**
 * Forgotten passwords: a link by e-mail to choose a new one. Asking always gets the same answer at the
 * same speed (the endpoint answers before any of this runs), so nobody learns which accounts exist; a
 * link works once, for 30 minutes, and a newer one replaces it. Choosing the password ends every
 * session of the account and revokes its API tokens (account-access.ts).
 */
import { Op, fn, col, where as sqlWhere } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { ForgotPasswordPayload, TokenPasswordPayload } from '~/shared/accounts';
import { baseLocale, isLocale } from '~/shared/locale';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';
import { inLocale } from '../../locale';
import type { Mailer } from '../../mail/mailer';
import { composeLinkEmail, linkInEmail } from '../../mail/compose';
import { endAccessAfterReset } from './account-access';
import { recordAudit, selfActor, strangerActor, userTarget } from '../audit';
import { findAccountTokenOwner, issueAccountToken, redeemAccountToken } from './account-tokens';
import type { LoginLimiter } from './login-limiter';
import { enqueueMessages, type Outbox } from '../outbox';
import type { PasswordHasher } from './passwords';

export const RESET_LINK_MINUTES = 30;
/** Reset e-mails one client address may ask for per login window, whatever the accounts. */
const RESETS_PER_ADDRESS = 10;
/** Reset e-mails one account receives per login window: enough to retry, too few to flood a mailbox. */
const RESETS_PER_ACCOUNT = 3;

export interface PasswordResetDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'productName'>;
  mailer: Pick<Mailer, 'enabled'>;
  outbox: Outbox;
  loginLimiter: LoginLimiter;
  passwords: PasswordHasher;
}

/** The per-address limit, checked before the answer; false: this address has asked too often. */
export function admitResetRequest(
  { loginLimiter }: Pick<PasswordResetDeps, 'loginLimiter'>,
  clientAddress: string,
): Promise<boolean> {
  return loginLimiter.admitRequest(`reset from ${clientAddress}`, RESETS_PER_ADDRESS);
}

/**
 * Sends the link to the account the username or e-mail address names, if it is active, has an address
 * and has not asked too often. Says nothing either way: it runs after the answer.
 */
export async function sendPasswordResetLink(
  deps: PasswordResetDeps,
  payload: ForgotPasswordPayload,
  clientAddress: string,
): Promise<void> {
  const { db, config } = deps;
  const login = payload.login;
  const matches = await db.models.User.findAll({
    where: {
      [Op.or]: [{ username: login }, sqlWhere(fn('lower', col('email')), login)],
      isActive: true,
      invited: false,
      email: { [Op.ne]: null },
    },
    order: [['id', 'ASC']],
  });
  // A username names one account; an address shared by several names none of them for sure.
  const user =
    matches.find((match) => match.username === login) ??
    (matches.length === 1 ? matches[0] : undefined);
  if (!user?.email) return;
  const requested = {
    action: 'password.reset-requested',
    target: userTarget(user.username),
  } as const;
  if (!(await deps.loginLimiter.admitRequest(`reset user ${user.id}`, RESETS_PER_ACCOUNT))) {
    await recordAudit(deps, strangerActor(clientAddress), {
      ...requested,
      detail: { outcome: 'asked for too often' },
    });
    return;
  }
  const token = await issueAccountToken(
    deps,
    user.id,
    'password-reset',
    RESET_LINK_MINUTES * 60_000,
  );
  const mail = inLocale(isLocale(user.locale) ? user.locale : baseLocale, () =>
    composeLinkEmail({
      subject: m.email_reset_subject({ product: config.productName }),
      greeting: m.email_greeting({ name: user.fullName || user.username }),
      intro: m.email_reset_intro({ username: user.username, product: config.productName }),
      linkText: m.email_reset_link(),
      url: linkInEmail(config.publicUrl, `/reset-password/${token}`),
      note: m.email_reset_note({ minutes: RESET_LINK_MINUTES }),
    }),
  );
  await enqueueMessages(deps, [{ ...mail, to: user.email, userId: user.id, unsubscribeUrl: null }]);
  await recordAudit(deps, strangerActor(clientAddress), {
    ...requested,
    detail: { outcome: 'link sent' },
  });
}

/** A link that does not work (unknown, used, replaced, revoked or expired), refused on its `token` field. */
function resetLinkEnded(): AppError {
  const message = m.account_reset_link_invalid();
  return new AppError('VALIDATION_ERROR', message, { details: [{ field: 'token', message }] });
}

/**
 * Sets the new password with the link's token, once, and signs the account out everywhere. The token is
 * looked up before anything is hashed, and the whole runs under the address's limits of sign-in: made-up
 * tokens cost no hashing and count as failures.
 */
export async function resetPasswordWithToken(
  deps: PasswordResetDeps,
  payload: TokenPasswordPayload,
  clientAddress: string,
): Promise<void> {
  const { db, passwords } = deps;
  const done = await deps.loginLimiter.checkTokenAttempt(clientAddress, async () => {
    if ((await findAccountTokenOwner(deps, payload.token, 'password-reset')) === null) return null;
    const passwordHash = await passwords.hash(payload.newPassword, clientAddress);
    return db.sequelize.transaction(async (transaction) => {
      const userId = await redeemAccountToken(deps, payload.token, 'password-reset', transaction);
      const user = userId === null ? null : await db.models.User.findByPk(userId, { transaction });
      if (!user || !user.isActive) throw resetLinkEnded();
      await user.update({ passwordHash }, { transaction });
      const revoked = await endAccessAfterReset(deps, user, 'link', transaction);
      await recordAudit(
        deps,
        selfActor(user, clientAddress),
        {
          action: 'password.reset-by-link',
          target: userTarget(user.username),
          detail: { sessionsEnded: true, apiTokensRevoked: revoked.length },
        },
        transaction,
      );
      return true;
    });
  });
  if (!done) throw resetLinkEnded();
}

/** Whether a reset link still works, so its page can say so before anyone types a password. */
export async function isResetLinkUsable(
  deps: Pick<PasswordResetDeps, 'db' | 'clock'>,
  token: string,
): Promise<boolean> {
  return (await findAccountTokenOwner(deps, token, 'password-reset')) !== null;
}
