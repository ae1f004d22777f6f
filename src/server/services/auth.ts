/** Signing in and out, and changing one's own password. */
import { m } from '~/paraglide/messages.js';
import type { ChangePasswordPayload, LoginPayload, PublicUser, SessionUser } from '~/shared/validation';
import { sequelize } from '../db';
import { User } from '../db/models';
import { AppError } from '../http/errors';
import { checkLoginAttempt } from './login-limiter';
import { hashPassword, spendVerifyTime, verifyPassword } from './passwords';
import { createSession, endSession, endUserSessions } from './sessions';
import { toSessionUser } from '../db/public-user';

/**
 * Checks the credentials and opens a new session. `previousToken` is the session the browser came
 * with: it ends, so one browser never holds two live sessions.
 */
export async function signInUser(
  payload: LoginPayload,
  clientAddress: string,
  previousToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  const { username, password } = payload;
  const user = await checkLoginAttempt(username, clientAddress, async () => {
    const account = await User.findOne({ where: { username } });
    const passwordMatches = account ? await verifyPassword(password, account.passwordHash, clientAddress) : await spendVerifyTime(password, clientAddress);
    return account && passwordMatches && account.isActive ? account : null;
  });
  if (!user) throw new AppError('AUTHENTICATION_ERROR', m.auth_invalid_credentials());
  return sequelize.transaction(async (transaction) => {
    await endSession(previousToken, transaction);
    await user.update({ lastLogin: new Date() }, { transaction });
    const token = await createSession(user.id, transaction);
    return { user: toSessionUser(user), token };
  });
}

export async function signOutUser(token: string | undefined): Promise<void> {
  await endSession(token);
}

/**
 * Changes the password and ends every other session of the user; the current one stays. Wrong
 * current passwords count against the login limit, so a borrowed session cannot guess at leisure.
 */
export async function changePassword(
  user: PublicUser,
  currentSessionId: string,
  clientAddress: string,
  payload: ChangePasswordPayload,
): Promise<void> {
  const account = await User.findByPk(user.id);
  if (!account) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  const confirmed = await checkLoginAttempt(user.username, clientAddress, async () =>
    (await verifyPassword(payload.currentPassword, account.passwordHash, clientAddress)) ? account : null,
  );
  if (!confirmed) {
    const message = m.auth_current_password_incorrect();
    throw new AppError('VALIDATION_ERROR', message, { details: [{ field: 'currentPassword', message }] });
  }
  const passwordHash = await hashPassword(payload.newPassword, clientAddress);
  await sequelize.transaction(async (transaction) => {
    await account.update({ passwordHash }, { transaction });
    await endUserSessions(user.id, { exceptSessionId: currentSessionId, transaction });
  });
}
