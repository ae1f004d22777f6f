/** Signing in and out, and changing one's own password. */
import { m } from '~/paraglide/messages.js';
import type { ChangePasswordPayload, LoginPayload, PublicUser, SessionUser } from '~/shared/validation';
import { toSessionUser } from '../db/public-user';
import { AppError } from '../errors';
import type { LoginLimiter } from './login-limiter';
import type { PasswordHasher } from './passwords';
import { createSession, endSession, endUserSessions, type SessionDeps } from './sessions';

export interface AuthDeps extends SessionDeps {
  loginLimiter: LoginLimiter;
  passwords: PasswordHasher;
}

/**
 * Checks the credentials and opens a new session. `previousToken` is the session the browser came
 * with: it ends, so one browser never holds two live sessions.
 */
export async function signInUser(
  deps: AuthDeps,
  payload: LoginPayload,
  clientAddress: string,
  previousToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  const { db, loginLimiter, passwords, clock } = deps;
  const { username, password } = payload;
  const user = await loginLimiter.checkLoginAttempt(username, clientAddress, async () => {
    const account = await db.models.User.findOne({ where: { username } });
    const passwordMatches = account
      ? await passwords.verify(password, account.passwordHash, clientAddress)
      : await passwords.spendVerifyTime(password, clientAddress);
    return account && passwordMatches && account.isActive && !account.invited ? account : null;
  });
  if (!user) throw new AppError('AUTHENTICATION_ERROR', m.auth_invalid_credentials());
  return db.sequelize.transaction(async (transaction) => {
    await endSession(deps, previousToken, transaction);
    await user.update({ lastLogin: new Date(clock.now()) }, { transaction });
    const token = await createSession(deps, user.id, transaction);
    return { user: toSessionUser(user), token };
  });
}

/**
 * Changes the password and ends every other session of the user; the current one stays. Wrong
 * current passwords count against the login limit, so a borrowed session cannot guess at leisure.
 */
export async function changePassword(
  deps: AuthDeps,
  user: PublicUser,
  currentSessionId: string,
  clientAddress: string,
  payload: ChangePasswordPayload,
): Promise<void> {
  const { db, loginLimiter, passwords } = deps;
  const account = await db.models.User.findByPk(user.id);
  if (!account) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  const confirmed = await loginLimiter.checkLoginAttempt(user.username, clientAddress, async () =>
    (await passwords.verify(payload.currentPassword, account.passwordHash, clientAddress)) ? account : null,
  );
  if (!confirmed) {
    const message = m.auth_current_password_incorrect();
    throw new AppError('VALIDATION_ERROR', message, { details: [{ field: 'currentPassword', message }] });
  }
  const passwordHash = await passwords.hash(payload.newPassword, clientAddress);
  await db.sequelize.transaction(async (transaction) => {
    await account.update({ passwordHash }, { transaction });
    await endUserSessions(deps, user.id, { exceptSessionId: currentSessionId, transaction });
  });
}
