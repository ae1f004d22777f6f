/**
 * Signing in (with its second factor, when two-factor sign-in asks for one) and out, and changing
 * one's own password.
 */
import { m } from '~/paraglide/messages.js';
import type {
  ChangePasswordPayload,
  LoginPayload,
  PublicUser,
  SessionUser,
} from '~/shared/validation';
import { isStaffRole } from '~/shared/two-factor';
import type { User } from '../../db/models';
import { toSessionUser } from '../../db/public-user';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';
import type { SignInMetrics } from '../../metrics';
import { baseLocale, isLocale } from '~/shared/locale';
import type { Config } from '../../config';
import { inLocale } from '../../locale';
import { composeLinkEmail, linkInEmail } from '../../mail/compose';
import { endUserApiTokens } from './api-tokens';
import type { AuditDetails } from '~/shared/audit';
import { recordAudit, selfActor, strangerActor, userTarget } from '../audit';
import type { LoginLimiter } from './login-limiter';
import { enqueueMessages, type Outbox } from '../outbox';
import type { PasswordHasher } from './passwords';
import {
  endPendingSignIn,
  findPendingSignIn,
  openPendingSignIn,
  takePendingCodeTry,
} from './pending-sign-ins';
import { createSession, endSession, endUserSessions, type SessionDeps } from './sessions';
import { twoFactorStepFor, verifySecondFactor, type TwoFactorDeps } from './two-factor';

export interface AuthDeps extends SessionDeps, TwoFactorDeps {
  config: SessionDeps['config'] & TwoFactorDeps['config'] & Pick<Config, 'publicUrl'>;
  loginLimiter: LoginLimiter;
  passwords: PasswordHasher;
  outbox: Outbox;
  metrics: SignInMetrics;
  log: Logger;
}

/**
 * Wrong codes an account takes per login window, from all addresses together: past them its code step
 * is closed for the rest of the window, for everyone, and the user is told by e-mail.
 */
export const ACCOUNT_CODE_FAILURES = 10;

/**
 * A refusal by the login limit is counted as `limited`, whichever step it stopped, and recorded in the
 * audit trail under the account the username names.
 */
export async function countedCheck<T>(
  deps: AuthDeps,
  attempt: { username: string; clientAddress: string },
  check: () => Promise<T | null>,
): Promise<T | null> {
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
      deps.log.warn(
        { component: 'auth', outcome: 'limited' },
        'Sign-in refused by the login limit',
      );
      await recordRefusal(deps, attempt.username, attempt.clientAddress, {
        action: 'sign-in.limited',
        detail: { reason: 'too many attempts' },
      });
    }
    throw error;
  }
}

/**
 * A refused sign-in's entry, under the account the username names, or under a stranger's
 * (recordAudit's actor for a name nobody has).
 */
async function recordRefusal(
  deps: AuthDeps,
  username: string,
  clientAddress: string,
  record: RefusedSignIn,
): Promise<void> {
  const account = await deps.db.models.User.findOne({
    attributes: ['id', 'username'],
    where: { username },
  });
  await recordAudit(
    deps,
    account ? selfActor(account, clientAddress) : strangerActor(clientAddress),
    account ? record : strangersRecord(record, username),
  );
}

/** A stranger's entry keeps the name they typed only as a bounded value of its detail: never as its actor. */
const strangersRecord = (record: RefusedSignIn, username: string): RefusedSignIn => ({
  ...record,
  detail: {
    reason: record.detail.reason,
    attemptedUsername: username.slice(0, ATTEMPTED_NAME_MAX),
  },
});
type RefusedSignIn = {
  action: 'sign-in.failed' | 'sign-in.limited';
  detail: AuditDetails['sign-in.failed'];
};
/** As long as a username may be. */
const ATTEMPTED_NAME_MAX = 64;

/**
 * A right password either opens a session, or leaves a second step to go: the code, enrolling
 * first, or the passkey.
 */
export type SignInOutcome =
  | { kind: 'signed-in'; user: SessionUser; token: string }
  | { kind: 'second-factor'; pendingToken: string; step: SecondStep };

/**
 * What a right password leads to: a code, an enrolment first, or (TWO_FACTOR=required-for-admins, for
 * an admin who holds a passkey and no authenticator) the passkey, which meets the requirement as well.
 */
export type SecondStep = 'code' | 'setup' | 'passkey';

async function secondStepFor(
  deps: Pick<AuthDeps, 'db' | 'config'>,
  account: User,
): Promise<SecondStep | null> {
  const step = twoFactorStepFor(deps.config, account);
  if (
    step === 'setup' &&
    (await deps.db.models.Passkey.count({ where: { userId: account.id } })) > 0
  )
    return 'passkey';
  return step;
}

/**
 * Checks the credentials and opens a new session, unless two-factor sign-in asks for a second step
 * first. `previousToken` is the session the browser came with: it ends, so one browser never holds two
 * live sessions. Sign-ins of admins and admin-viewers are audited, and failed ones of unknown names.
 */
export async function signInUser(
  deps: AuthDeps,
  payload: LoginPayload,
  clientAddress: string,
  previousToken?: string,
): Promise<SignInOutcome> {
  const { db, loginLimiter, passwords, config } = deps;
  const { username, password } = payload;
  let account: User | null = null;
  const user = await countedCheck(deps, { username, clientAddress }, () =>
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
    if (!known)
      await recordAudit(
        deps,
        strangerActor(clientAddress),
        strangersRecord(
          { action: 'sign-in.failed', detail: { reason: 'no such account' } },
          username,
        ),
      );
    else if (isStaffRole(known.role)) {
      await recordAudit(deps, selfActor(known, clientAddress), {
        action: 'sign-in.failed',
        detail: { reason: known.isActive ? 'wrong password' : 'inactive account' },
      });
    }
    // The last try before the lock says so: the lock must not come as a surprise.
    const { left, lockMinutes } = await loginLimiter.failuresLeft(username, clientAddress);
    throw new AppError(
      'AUTHENTICATION_ERROR',
      left === 1
        ? m.auth_invalid_credentials_last_attempt({ minutes: lockMinutes })
        : m.auth_invalid_credentials(),
    );
  }
  const step = await secondStepFor(deps, user);
  if (step)
    return { kind: 'second-factor', pendingToken: await openPendingSignIn(deps, user.id), step };
  return {
    kind: 'signed-in',
    ...(await completeSignIn(deps, user, clientAddress, previousToken, 'password')),
  };
}

/**
 * The session of a sign-in whose every step passed, and its audit entry for admins and admin-viewers:
 * every way of signing in (a password, a second factor, a passkey) ends here.
 */
export async function completeSignIn(
  deps: SessionDeps & { metrics: SignInMetrics; log: Logger },
  user: User,
  clientAddress: string,
  previousToken: string | undefined,
  how: AuditDetails['sign-in.succeeded']['method'],
  pendingToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  const { db, clock } = deps;
  const opened = await db.sequelize.transaction(async (transaction) => {
    // The pending sign-in ends with it: its cookie, replayed, finishes nothing.
    if (pendingToken !== undefined && !(await endPendingSignIn(deps, pendingToken, transaction))) {
      throw new AppError('AUTHENTICATION_ERROR', m.twofactor_pending_expired());
    }
    await endSession(deps, previousToken, transaction);
    await user.update({ lastLogin: new Date(clock.now()) }, { transaction });
    const token = await createSession(deps, user.id, transaction);
    if (isStaffRole(user.role)) {
      await recordAudit(
        deps,
        { id: user.id, username: user.username, clientAddress },
        { action: 'sign-in.succeeded', detail: { method: how } },
        transaction,
      );
    }
    return { user: toSessionUser(user), token };
  });
  // Counted once the session is open: a right password that still awaits its second factor is no sign-in yet.
  deps.metrics.signIn('success');
  deps.log.info({ component: 'auth', outcome: 'success', userId: user.id, how }, 'Signed in');
  return opened;
}

/** The account a pending sign-in names, while it may still finish: active, and still asked for that step. */
async function pendingAccount(
  deps: AuthDeps,
  userId: number | null,
  step: SecondStep,
): Promise<User> {
  const account = userId === null ? null : await deps.db.models.User.findByPk(userId);
  if (!account?.isActive || (await secondStepFor(deps, account)) !== step) {
    throw new AppError('AUTHENTICATION_ERROR', m.twofactor_pending_expired());
  }
  return account;
}

/**
 * Checks a code under the account's own limit: ACCOUNT_CODE_FAILURES wrong codes per window from any
 * address, after which every code is refused as wrong until the window ends. The wrong code that
 * closes the step e-mails the user.
 */
async function verifyUnderAccountLimit(
  deps: AuthDeps,
  account: User,
  code: string,
): Promise<'authenticator code' | 'recovery code' | null> {
  const key = `second factor of user ${account.id}`;
  const tried = await deps.loginLimiter.takeTry(key, ACCOUNT_CODE_FAILURES);
  if (tried === null) return null;
  const how = await verifySecondFactor(deps, account, code);
  if (how) await deps.loginLimiter.giveTryBack(key);
  else if (tried === ACCOUNT_CODE_FAILURES) await warnOfClosedCodeStep(deps, account);
  return how;
}

/** Tells the user, in their language, that someone with their password was guessing codes. */
async function warnOfClosedCodeStep(deps: AuthDeps, account: User): Promise<void> {
  deps.log.warn(
    { component: 'auth', userId: account.id },
    'Two-factor code step closed after too many wrong codes',
  );
  if (!account.email) return;
  const { config } = deps;
  const minutes = deps.loginLimiter.windowMinutes;
  const mail = inLocale(isLocale(account.locale) ? account.locale : baseLocale, () =>
    composeLinkEmail({
      subject: m.email_twofactor_locked_subject({ product: config.productName }),
      greeting: m.email_greeting({ name: account.fullName || account.username }),
      intro: m.email_twofactor_locked_intro({
        product: config.productName,
        username: account.username,
        minutes,
      }),
      linkText: m.email_twofactor_locked_link(),
      url: linkInEmail(config.publicUrl, '/profile'),
      note: m.email_twofactor_locked_note({ minutes }),
    }),
  );
  await enqueueMessages(deps, [
    { ...mail, to: account.email, userId: account.id, unsubscribeUrl: null },
  ]);
}

/**
 * The second step of a sign-in: a code from the authenticator app or a recovery code. Each counts
 * against the pending sign-in's PENDING_CODE_TRIES; wrong codes count against the login limit as wrong
 * passwords do, under the same username, and against the account's own limit.
 */
export async function signInWithSecondFactor(
  deps: AuthDeps,
  pendingToken: string,
  code: string,
  clientAddress: string,
  previousToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  const account = await pendingAccount(deps, await takePendingCodeTry(deps, pendingToken), 'code');
  const how = await countedCheck(deps, { username: account.username, clientAddress }, () =>
    deps.loginLimiter.checkLoginAttempt(account.username, clientAddress, () =>
      verifyUnderAccountLimit(deps, account, code),
    ),
  );
  if (!how) {
    if (isStaffRole(account.role)) {
      await recordAudit(
        deps,
        { id: account.id, username: account.username, clientAddress },
        { action: 'sign-in.failed', detail: { reason: 'wrong two-factor code' } },
      );
    }
    throw new AppError('AUTHENTICATION_ERROR', m.twofactor_code_invalid());
  }
  return completeSignIn(
    deps,
    account,
    clientAddress,
    previousToken,
    `password and ${how}`,
    pendingToken,
  );
}

/** The step a pending sign-in is at, while it may still go on. */
export async function pendingSignInStep(
  deps: AuthDeps,
  pendingToken: string,
): Promise<SecondStep | null> {
  const userId = await findPendingSignIn(deps, pendingToken);
  const account = userId === null ? null : await deps.db.models.User.findByPk(userId);
  return account?.isActive ? secondStepFor(deps, account) : null;
}

/** The user of a pending sign-in that may enrol: only one that TWO_FACTOR=required-for-admins sent to enrolment. */
export async function assertPendingEnrolment(
  deps: AuthDeps,
  pendingToken: string,
): Promise<number> {
  return (await pendingAccount(deps, await findPendingSignIn(deps, pendingToken), 'setup')).id;
}

/** The sign-in that enrolment interrupted, finished once two-factor sign-in is on. */
export async function signInAfterEnrolment(
  deps: AuthDeps,
  pendingToken: string,
  clientAddress: string,
  previousToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  const account = await pendingAccount(deps, await findPendingSignIn(deps, pendingToken), 'code');
  return completeSignIn(
    deps,
    account,
    clientAddress,
    previousToken,
    'password and two-factor enrolment',
    pendingToken,
  );
}

/**
 * Changes the password and, unless the user chose otherwise, ends every other session of the user and
 * revokes their API tokens; the current session stays. Wrong current passwords count against the
 * login limit, so a borrowed session cannot guess at leisure.
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
    (await passwords.verify(payload.currentPassword, account.passwordHash, clientAddress))
      ? account
      : null,
  );
  if (!confirmed) {
    const message = m.auth_current_password_incorrect();
    throw new AppError('VALIDATION_ERROR', message, {
      details: [{ field: 'currentPassword', message }],
    });
  }
  const passwordHash = await passwords.hash(payload.newPassword, clientAddress);
  await db.sequelize.transaction(async (transaction) => {
    await account.update({ passwordHash }, { transaction });
    const detail = { sessionsEnded: payload.signOutOthers, apiTokensRevoked: 0 };
    if (payload.signOutOthers) {
      await endUserSessions(deps, user.id, { exceptSessionId: currentSessionId, transaction });
      detail.apiTokensRevoked = (await endUserApiTokens(deps, user.id, transaction)).length;
    }
    await recordAudit(
      deps,
      selfActor(user, clientAddress),
      { action: 'password.changed', target: userTarget(user.username), detail },
      transaction,
    );
  });
}
