/** Signing in and out, and changing one's own password. */
import type { ChangePasswordPayload, LoginPayload, PublicUser } from '~/shared/validation';
import { sequelize } from '../db';
import { User } from '../db/models';
import { AppError } from '../http/errors';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-limiter';
import { hashPassword, spendVerifyTime, verifyPassword } from './passwords';
import { createSession, endSession, endUserSessions } from './sessions';
import { toPublicUser } from './users';

const INVALID_CREDENTIALS = 'Invalid username or password';

export async function login(payload: LoginPayload, clientAddress: string): Promise<{ user: PublicUser; token: string }> {
  const { username, password } = payload;
  await assertLoginAllowed(username, clientAddress);
  const user = await User.findOne({ where: { username } });
  const passwordMatches = user ? await verifyPassword(password, user.passwordHash) : await spendVerifyTime(password);
  if (!user || !passwordMatches || !user.isActive) {
    await recordLoginFailure(username, clientAddress);
    throw new AppError('AUTHENTICATION_ERROR', INVALID_CREDENTIALS);
  }
  await clearLoginFailures(username, clientAddress);
  return sequelize.transaction(async (transaction) => {
    await user.update({ lastLogin: new Date() }, { transaction });
    const token = await createSession(user.id, transaction);
    return { user: toPublicUser(user), token };
  });
}

export async function logout(token: string | undefined): Promise<void> {
  await endSession(token);
}

/** Changes the password and ends every other session of the user; the current one stays. */
export async function changePassword(userId: number, currentSessionId: string, payload: ChangePasswordPayload): Promise<void> {
  const user = await User.findByPk(userId);
  if (!user) throw new AppError('AUTHENTICATION_ERROR', 'Authentication required');
  if (!(await verifyPassword(payload.currentPassword, user.passwordHash))) {
    throw new AppError('VALIDATION_ERROR', 'Current password is incorrect', {
      details: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
    });
  }
  const passwordHash = await hashPassword(payload.newPassword);
  await sequelize.transaction(async (transaction) => {
    await user.update({ passwordHash }, { transaction });
    await endUserSessions(userId, { exceptSessionId: currentSessionId, transaction });
  });
}
