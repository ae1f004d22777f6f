/**
 * Two-factor sign-in with TOTP (30-second steps, 6 digits, HMAC-SHA-1, as authenticator
 * apps expect) and single-use recovery codes. The secret is kept encrypted with the app key; a code is
 * accepted once (the last accepted time step is stored), a recovery code once (stored as an HMAC, with a
 * key of the app secret, of its SHA-256: a copy of the database alone cannot test guesses against it).
 */
import { createHash, createHmac, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { Op, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  isStaffRole,
  isTotpCode,
  normalizeCode,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  type DisableTwoFactorPayload,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '~/shared/two-factor';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { User } from '../../db/models';
import { decryptValue, encryptValue } from '../../encryption';
import { AppError } from '../../errors';
import { recordAudit, selfActor, userTarget, type AuditActor } from '../audit';
import type { LoginLimiter } from './login-limiter';
import type { PasswordHasher } from './passwords';
import { endUserSessions } from './sessions';
import { removeSignInMethod, type AccountNoticeDeps } from './account-access';

const PERIOD_SECONDS = 30;
/** One step either side: a phone's clock a little off, or a code typed as it turned over. */
const WINDOW_STEPS = 1;
const SECRET_BYTES = 20;
/** No 0/o, 1/l/i: a code read from paper is typed back right. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUP = 5;

export interface TwoFactorDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'twoFactor' | 'productName'>;
  keys: { twoFactorSecrets: Buffer; recoveryCodes: Buffer };
}

/** The account as the rules here need it. */
export type TwoFactorAccount = Pick<User, 'id' | 'username' | 'role' | 'twoFactorEnabledAt'>;

/** What the sign-in must ask after a right password: the code, an enrolment first, or nothing. */
export function twoFactorStepFor(
  config: Pick<Config, 'twoFactor'>,
  account: TwoFactorAccount,
): 'code' | 'setup' | null {
  if (config.twoFactor === 'off') return null;
  if (account.twoFactorEnabledAt) return 'code';
  if (config.twoFactor === 'required-for-admins' && isStaffRole(account.role)) return 'setup';
  return null;
}

/** The secret is bound to its row: copied to another user's, it no longer decrypts. */
const secretField = (userId: number) => `users.twoFactorSecret.${userId}`;
/** The unkeyed SHA-256 that recovery codes were stored as before migration 0026: what the keyed hash is taken of. */
const digestRecoveryCode = (code: string) =>
  createHash('sha256').update(normalizeCode(code)).digest('hex');
const keyedRecoveryHash = (key: Buffer, digest: string) =>
  createHmac('sha256', key).update(digest).digest('hex');
const hashRecoveryCode = (key: Buffer, code: string) =>
  keyedRecoveryHash(key, digestRecoveryCode(code));

function totpOf(config: Pick<Config, 'productName'>, username: string, base32: string): TOTP {
  return new TOTP({
    issuer: config.productName,
    label: username,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

async function loadAccount(db: Database, userId: number, transaction?: Transaction): Promise<User> {
  const account = await db.models.User.findByPk(userId, { transaction });
  if (!account) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  return account;
}

/**
 * A new secret for the user, kept (encrypted) but not in force until `enableTwoFactor` sees a code
 * from it. Asking again replaces it: only the last QR code shown works.
 */
export async function startTwoFactorSetup(
  deps: TwoFactorDeps,
  userId: number,
  clientAddress: string,
): Promise<TwoFactorSetup> {
  const { db, config, keys } = deps;
  const account = await loadAccount(db, userId);
  if (account.twoFactorEnabledAt) throw new AppError('CONFLICT', m.twofactor_already_enabled());
  const secret = new Secret({ size: SECRET_BYTES }).base32;
  await db.sequelize.transaction(async (transaction) => {
    await account.update(
      {
        twoFactorSecret: encryptValue(keys.twoFactorSecrets, secret, secretField(account.id)),
        twoFactorLastStep: null,
      },
      { transaction },
    );
    await recordAudit(
      deps,
      selfActor(account, clientAddress),
      { action: 'two-factor.setup-started', target: userTarget(account.username) },
      transaction,
    );
  });
  const otpauthUri = totpOf(config, account.username, secret).toString();
  const qrSvg = await QRCode.toString(otpauthUri, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
  });
  return { otpauthUri, secret, qrSvg };
}

/**
 * The time step of a right code that was not used before, stored as the last one used, or null. The
 * conditional update makes two requests with the same code race for one row: one of them wins.
 */
async function acceptTotp(
  deps: TwoFactorDeps,
  account: User,
  code: string,
  transaction?: Transaction,
): Promise<boolean> {
  const { db, clock, config, keys } = deps;
  const secret =
    account.twoFactorSecret &&
    decryptValue(keys.twoFactorSecrets, account.twoFactorSecret, secretField(account.id));
  if (!secret) return false;
  const now = clock.now();
  const delta = totpOf(config, account.username, secret).validate({
    token: normalizeCode(code),
    timestamp: now,
    window: WINDOW_STEPS,
  });
  if (delta === null) return false;
  const step = TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
  const [updated] = await db.models.User.update(
    { twoFactorLastStep: step },
    {
      where: {
        id: account.id,
        [Op.or]: [{ twoFactorLastStep: null }, { twoFactorLastStep: { [Op.lt]: step } }],
      },
      transaction,
    },
  );
  return updated === 1;
}

function newRecoveryCode(): string {
  const characters = Array.from(
    { length: RECOVERY_GROUP * 2 },
    () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
  );
  return `${characters.slice(0, RECOVERY_GROUP).join('')}-${characters.slice(RECOVERY_GROUP).join('')}`;
}

/**
 * Turns the secret of the last setup on with a code from it; answers the recovery codes, shown this once.
 * Every other session of the user ends (`keepSessionId` is the one enabling it, none for a pending
 * sign-in): one opened by someone who had the password alone would otherwise stay open.
 */
export async function enableTwoFactor(
  deps: TwoFactorDeps,
  userId: number,
  clientAddress: string,
  code: string,
  keepSessionId: string | null,
): Promise<string[]> {
  const { db, clock, keys } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const account = await loadAccount(db, userId, transaction);
    if (account.twoFactorEnabledAt) throw new AppError('CONFLICT', m.twofactor_already_enabled());
    if (!account.twoFactorSecret) throw new AppError('CONFLICT', m.twofactor_setup_first());
    if (!(await acceptTotp(deps, account, code, transaction))) {
      const message = m.twofactor_code_wrong();
      throw new AppError('VALIDATION_ERROR', message, { details: [{ field: 'code', message }] });
    }
    await account.update({ twoFactorEnabledAt: new Date(clock.now()) }, { transaction });
    await endUserSessions(deps, userId, {
      exceptSessionId: keepSessionId ?? undefined,
      transaction,
    });
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await db.models.RecoveryCode.destroy({ where: { userId }, transaction });
    await db.models.RecoveryCode.bulkCreate(
      recoveryCodes.map((recoveryCode) => ({
        userId,
        codeHash: hashRecoveryCode(keys.recoveryCodes, recoveryCode),
        keyed: true,
      })),
      { transaction },
    );
    await recordAudit(
      deps,
      { id: account.id, username: account.username, clientAddress },
      { action: 'two-factor.enabled', target: userTarget(account.username) },
      transaction,
    );
    return recoveryCodes;
  });
}

/** Forgets the secret, the last step and the recovery codes: the account signs in with its password alone. */
async function clearTwoFactor(
  db: Database,
  userId: number,
  transaction: Transaction,
): Promise<void> {
  await db.models.User.update(
    { twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null },
    { where: { id: userId }, transaction },
  );
  await db.models.RecoveryCode.destroy({ where: { userId }, transaction });
}

export interface DisableDeps extends TwoFactorDeps {
  loginLimiter: LoginLimiter;
  passwords: PasswordHasher;
}

/**
 * Turns one's own two-factor sign-in off, confirmed by the password and a second factor (a code from the
 * app or a recovery code): a session opened with a stolen password alone cannot take the second factor
 * away. Wrong ones count against the login limit, as for a password change: a borrowed session cannot
 * guess at leisure.
 */
export async function disableTwoFactor(
  deps: DisableDeps,
  userId: number,
  clientAddress: string,
  payload: DisableTwoFactorPayload,
): Promise<void> {
  const { db, loginLimiter, passwords } = deps;
  const account = await loadAccount(db, userId);
  if (!account.twoFactorEnabledAt) throw new AppError('CONFLICT', m.twofactor_not_enabled());
  let wrong: 'password' | 'code' = 'password';
  const confirmed = await loginLimiter.checkLoginAttempt(
    account.username,
    clientAddress,
    async () => {
      if (!(await passwords.verify(payload.password, account.passwordHash, clientAddress)))
        return null;
      wrong = 'code';
      return (await verifySecondFactor(deps, account, payload.code)) ? account : null;
    },
  );
  if (!confirmed) {
    const message =
      wrong === 'password' ? m.twofactor_password_incorrect() : m.twofactor_code_invalid();
    throw new AppError('VALIDATION_ERROR', message, { details: [{ field: wrong, message }] });
  }
  await db.sequelize.transaction(async (transaction) => {
    await clearTwoFactor(db, userId, transaction);
    await recordAudit(
      deps,
      { id: account.id, username: account.username, clientAddress },
      { action: 'two-factor.disabled', target: userTarget(account.username) },
      transaction,
    );
  });
}

/**
 * Another person turns a user's two-factor sign-in off: an admin for a user who lost their phone and
 * codes, or the operator at the console (`npm run admin -- disable-2fa`). Answers the username.
 */
export async function resetTwoFactor(
  deps: AccountNoticeDeps,
  actor: AuditActor,
  userId: number,
): Promise<string> {
  const { db } = deps;
  // One's own goes through Profile Settings, with the password and a code: a borrowed admin session
  // cannot take it away.
  if (actor.id === userId) throw new AppError('FORBIDDEN', m.twofactor_reset_own_refused());
  return removeSignInMethod(deps, actor, userId, {
    clear: async (account, transaction) => {
      const wasOn = account.twoFactorEnabledAt !== null;
      await clearTwoFactor(db, account.id, transaction);
      const target = userTarget(account.username);
      return { hadAny: wasOn, entry: { action: 'two-factor.reset', target, detail: { wasOn } } };
    },
    notice: (names) => ({
      subject: m.email_twofactor_reset_subject(names),
      intro: m.email_twofactor_reset_intro(names),
    }),
  });
}

export async function readTwoFactorStatus(
  { db }: { db: Database },
  userId: number,
): Promise<TwoFactorStatus> {
  const account = await loadAccount(db, userId);
  const enabled = account.twoFactorEnabledAt !== null;
  const recoveryCodesLeft = enabled
    ? await db.models.RecoveryCode.count({ where: { userId, usedAt: null } })
    : 0;
  return { enabled, recoveryCodesLeft };
}

/**
 * Checks the second factor of a sign-in: an authenticator code not used before, or an unused recovery
 * code, which is then used up. Answers which one it was, or null.
 */
export async function verifySecondFactor(
  deps: TwoFactorDeps,
  account: User,
  code: string,
): Promise<'authenticator code' | 'recovery code' | null> {
  if (!account.twoFactorEnabledAt) return null;
  if (isTotpCode(code))
    return (await acceptTotp(deps, account, code)) ? 'authenticator code' : null;
  const [used] = await deps.db.models.RecoveryCode.update(
    { usedAt: new Date(deps.clock.now()) },
    {
      where: {
        userId: account.id,
        codeHash: hashRecoveryCode(deps.keys.recoveryCodes, code),
        keyed: true,
        usedAt: null,
      },
    },
  );
  return used > 0 ? 'recovery code' : null;
}

/**
 * Start-up: recovery codes stored before migration 0026 as a bare SHA-256 are rewritten as the keyed
 * hash of that SHA-256, so every code handed out keeps working. Each row is rewritten only while still
 * unkeyed: processes starting together never key one twice.
 */
export async function keyStoredRecoveryCodes({
  db,
  keys,
}: Pick<TwoFactorDeps, 'db' | 'keys'>): Promise<void> {
  const unkeyed = await db.models.RecoveryCode.findAll({
    attributes: ['id', 'codeHash'],
    where: { keyed: false },
  });
  for (const row of unkeyed) {
    await db.models.RecoveryCode.update(
      { codeHash: keyedRecoveryHash(keys.recoveryCodes, row.codeHash), keyed: true },
      { where: { id: row.id, keyed: false } },
    );
  }
}
