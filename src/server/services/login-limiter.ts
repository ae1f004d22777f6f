/**
 * Login rate limit (design.md): LOGIN_MAX_ATTEMPTS failures for one username from one client address
 * inside LOGIN_WINDOW_SECONDS lock that pair until the oldest of them leaves the window. A looser cap
 * per address stops one client from spraying many usernames.
 */
import { Op } from 'sequelize';
import { config } from '../config';
import { LoginFailure } from '../db/models';
import { AppError } from '../http/errors';
import { rateLimitMessage } from '~/shared/format';

const windowStart = () => new Date(Date.now() - config.loginWindowSeconds * 1000);

/** Seconds until the failure that completes the limit leaves the window, or 0 when not limited. */
async function secondsLocked(where: object, limit: number): Promise<number> {
  const recent = await LoginFailure.findAll({
    attributes: ['createdAt'],
    where: { ...where, createdAt: { [Op.gt]: windowStart() } },
    order: [['createdAt', 'DESC']],
    limit,
    raw: true,
  });
  if (recent.length < limit) return 0;
  const oldest = new Date(recent[recent.length - 1]!.createdAt).getTime();
  return Math.max(1, Math.ceil((oldest + config.loginWindowSeconds * 1000 - Date.now()) / 1000));
}

export async function assertLoginAllowed(username: string, address: string): Promise<void> {
  const retryAfter = Math.max(
    await secondsLocked({ username, address }, config.loginMaxAttempts),
    await secondsLocked({ address }, config.loginMaxAttemptsPerAddress),
  );
  if (retryAfter > 0) throw new AppError('RATE_LIMITED', rateLimitMessage(retryAfter), { retryAfter });
}

export async function recordLoginFailure(username: string, address: string): Promise<void> {
  await LoginFailure.create({ username, address });
}

export async function clearLoginFailures(username: string, address: string): Promise<void> {
  await LoginFailure.destroy({ where: { username, address } });
}

export async function purgeOldLoginFailures(): Promise<void> {
  await LoginFailure.destroy({ where: { createdAt: { [Op.lte]: windowStart() } } });
}
