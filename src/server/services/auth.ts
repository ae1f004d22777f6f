/** Signing in (with its second factor, when two-factor sign-in asks for one) and out, and changing one's own password. */
import { m } from '~/paraglide/messages.js';
import type { ChangePasswordPayload, LoginPayload, PublicUser, SessionUser } from '~/shared/validation';
import { isStaffRole } from '~/shared/two-factor';
import type { User } from '../db/models';
import { toSessionUser } from '../db/public-user';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { SignInMetrics } from '../metrics';
import { recordAudit } from './audit';
import type { LoginLimiter } from './login-limiter';
import type { PasswordHasher } from './passwords';
import { createSession, endSession, endUserSessions, type SessionDeps } from './sessions';
import { twoFactorStepFor, verifySecondFactor, type TwoFactorDeps } from './two-factor';

export interface AuthDeps extends SessionDeps, TwoFactorDeps {
  config: SessionDeps['config'] & TwoFactorDeps['config'];
  loginLimiter: LoginLimiter;
  passwords: PasswordHasher;
  metrics: SignInMetrics;
  log: Logger;
}

/** A refusal by the login limit is counted as `limited`, whichever step it stopped. */
async function countedCheck<T>(deps: AuthDeps, check: () => Promise<T | null>): Promise<T | null> {
  try {
    const result = await check();
    if (result === null) {
      deps.metrics.signIn('wrong');
      deps.log.info({ component: 'auth', outcome: 'wrong' }, 'Sign-in refused: wrong credentials');
    }
    return result;
  } catch (error) {
    if (error instanceof AppError && error.errorType === 'RATE_LIMITED') {
      deps.metrics.signIn('limited');
      deps.log.warn({ component: 'auth', outcome: 'limited' }, 'Sign-in refused by the login limit');
    }
    throw error;
  }
}

/** A right password either opens a session, or leaves a second step to go: the code, or enrolling first. */
export type SignInOutcome = { kind: 'signed-in'; user: SessionUser; token: string } | { kind: 'second-factor'; userId: number; step: 'code' | 'setup' };

/**
 * Checks the credentials and opens a new session, unless two-factor sign-in asks for a second step
 * first. `previousToken` is the session the browser came with: it ends, so one browser never holds two
 * live sessions. Sign-ins of admins and admin-viewers are audited, and failed ones of unknown names.
 */
export async function signInUser(deps: AuthDeps, payload: LoginPayload, clientAddress: string, previousToken?: string): Promise<SignInOutcome> {
  const { db, loginLimiter, passwords, config } = deps;
  const { username, password } = payload;
  let account: User | null = null;
  const user = await countedCheck(deps, () =>
    loginLimiter.checkLoginAttempt(
      username,
      clientAddress,
      async () => {
        account = await db.models.User.findOne({ where: { username } });
        const passwordMatches = account
          ? await passwords.verify(password, account.passwordHash, clientAddress)
          : await passwords.spendVerifyTime(password, clientAddress);
        return account && passwordMatches && account.isActive && !account.invited ? account : null;
      },
      (found) => twoFactorStepFor(config, found) !== null,
    ),
  );
  if (!user) {
    const known = account as User | null;
    if (!known || isStaffRole(known.role)) {
      const detail = !known ? 'no such account' : known.isActive ? 'wrong password' : 'inactive account';
      await recordAudit(deps, { id: known?.id ?? null, username, clientAddress }, { action: 'sign-in.failed', detail });
    }
    // The last try before the lock says so: the lock must not come as a surprise.
    const { left, lockMinutes } = await loginLimiter.failuresLeft(username, clientAddress);
    throw new AppError('AUTHENTICATION_ERROR', left === 1 ? m.auth_invalid_credentials_last_attempt({ minutes: lockMinutes }) : m.auth_invalid_credentials());
  }
  const step = twoFactorStepFor(config, user);
  if (step) return { kind: 'second-factor', userId: user.id, step };
  return { kind: 'signed-in', ...(await completeSignIn(deps, user, clientAddress, previousToken, 'password')) };
}

/** The session of a sign-in whose every step passed, and its audit entry for admins and admin-viewers. */
async function completeSignIn(
  deps: SessionDeps & { metrics: SignInMetrics; log: Logger },
  user: User,
  clientAddress: string,
  previousToken: string | undefined,
  how: string,
): Promise<{ user: SessionUser; token: string }> {
  const { db, clock } = deps;
  const opened = await db.sequelize.transaction(async (transaction) => {
    await endSession(deps, previousToken, transaction);
    await user.update({ lastLogin: new Date(clock.now()) }, { transaction });
    const token = await createSession(deps, user.id, transaction);
    if (isStaffRole(user.role)) {
      await recordAudit(deps, { id: user.id, username: user.username, clientAddress }, { action: 'sign-in.succeeded', detail: how }, transaction);
    }
    return { user: toSessionUser(user), token };
  });
  // Counted once the session is open: a right password that still awaits its second factor is no sign-in yet.
  deps.metrics.signIn('success');
  deps.log.info({ component: 'auth', outcome: 'success', userId: user.id, how }, 'Signed in');
  return opened;
}

/** The account a pending sign-in names, while it may still finish: active, and still asked for that step. */
async function pendingAccount(deps: AuthDeps, userId: number, step: 'code' | 'setup'): Promise<User> {
  const account = await deps.db.models.User.findByPk(userId);
  if (!account?.isActive || twoFactorStepFor(deps.config, account) !== step) {
    throw new AppError('AUTHENTICATION_ERROR', m.twofactor_pending_expired());
  }
  return account;
}

/**
 * The second step of a sign-in: a code from the authenticator app or a recovery code. Wrong codes count
 * against the login limit as wrong passwords do, under the same username.
 */
export async function signInWithSecondFactor(
  deps: AuthDeps,
  userId: number,
  code: string,
  clientAddress: string,
  previousToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  const account = await pendingAccount(deps, userId, 'code');
  const how = await countedCheck(deps, () =>
    deps.loginLimiter.checkLoginAttempt(account.username, clientAddress, () => verifySecondFactor(deps, account, code)),
  );
  if (!how) {
    if (isStaffRole(account.role)) {
      await recordAudit(deps, { id: account.id, username: account.username, clientAddress }, { action: 'sign-in.failed', detail: 'wrong two-factor code' });
    }
    throw new AppError('AUTHENTICATION_ERROR', m.twofactor_code_invalid());
  }
  return completeSignIn(deps, account, clientAddress, previousToken, `password and ${how}`);
}

/** The step a pending sign-in is at, while it may still finish. */
export async function pendingSignInStep(deps: AuthDeps, userId: number): Promise<'code' | 'setup' | null> {
  const account = await deps.db.models.User.findByPk(userId);
  return account?.isActive ? twoFactorStepFor(deps.config, account) : null;
}

/** Whether a pending sign-in may enrol: only one that TWO_FACTOR=required-for-admins sent to enrolment. */
export async function assertPendingEnrolment(deps: AuthDeps, userId: number): Promise<void> {
  await pendingAccount(deps, userId, 'setup');
}

/** The sign-in that enrolment interrupted, finished once two-factor sign-in is on. */
export async function signInAfterEnrolment(
  deps: AuthDeps,
  userId: number,
  clientAddress: string,
  previousToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  const account = await pendingAccount(deps, userId, 'code');
  return completeSignIn(deps, account, clientAddress, previousToken, 'password and two-factor enrolment');
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
