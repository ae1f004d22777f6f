/**
 * Login rate limit (design.md): LOGIN_MAX_ATTEMPTS failures for one username from one client address
 * inside LOGIN_WINDOW_SECONDS lock that pair until the oldest of them leaves the window. A looser cap
 * per address stops one client from spraying many usernames.
 *
 * An attempt is booked as a failure before its password is checked, in the same transaction as the
 * check of the limit, and taken back only when it succeeds: parallel guesses cannot slip through
 * while the first ones are still hashing.
 */
import { Op, type Transaction } from 'sequelize';
import { rateLimitMessage } from '~/shared/format';
import { config } from '../config';
import { sequelize } from '../db';
import { LoginFailure } from '../db/models';
import { AppError } from '../http/errors';

const windowStart = () => new Date(Date.now() - config.loginWindowSeconds * 1000);

/** Seconds until the failure that completes the limit leaves the window, or 0 when not limited. */
async function secondsLocked(where: object, limit: number, transaction: Transaction): Promise<number> {
  const recent = await LoginFailure.findAll({
    attributes: ['createdAt'],
    where: { ...where, createdAt: { [Op.gt]: windowStart() } },
    order: [['createdAt', 'DESC']],
    limit,
    raw: true,
    transaction,
  });
  if (recent.length < limit) return 0;
  const oldest = new Date(recent[recent.length - 1]!.createdAt).getTime();
  return Math.max(1, Math.ceil((oldest + config.loginWindowSeconds * 1000 - Date.now()) / 1000));
}

/** Refuses with 429 when the pair or the address is locked; otherwise books the attempt as a failure. */
export async function bookLoginAttempt(username: string, address: string): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    const retryAfter = Math.max(
      await secondsLocked({ username, address }, config.loginMaxAttempts, transaction),
      await secondsLocked({ address }, config.loginMaxAttemptsPerAddress, transaction),
    );
    if (retryAfter > 0) throw new AppError('RATE_LIMITED', rateLimitMessage(retryAfter), { retryAfter });
    await LoginFailure.create({ username, address }, { transaction });
  });
}

/** A successful sign-in wipes the pair's failures, the booked attempt included. */
export async function clearLoginFailures(username: string, address: string): Promise<void> {
  await LoginFailure.destroy({ where: { username, address } });
}

export async function purgeOldLoginFailures(): Promise<void> {
  await LoginFailure.destroy({ where: { createdAt: { [Op.lte]: windowStart() } } });
}
