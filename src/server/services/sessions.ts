/**
 * Server-side sessions: the browser holds a random 256-bit token, the database only its SHA-256.
 * A session ends at logout, after an idle period, or at an absolute age, whichever comes first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { PublicUser } from '~/shared/validation';
import { config } from '../config';
import { sequelize } from '../db';
import { Session, User } from '../db/models';
import { forgetOnWrite } from '../db/write-hooks';
import { toPublicUser } from '../db/public-user';

const MINUTE_MS = 60_000;
/** lastSeenAt is written at most once a minute, so reading pages does not write on every request. */
const TOUCH_INTERVAL_MS = MINUTE_MS;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ActiveSession {
  sessionId: string;
  user: PublicUser;
}

export async function createSession(userId: number, transaction?: Transaction): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await Session.create(
    { id: hashToken(token), userId, lastSeenAt: now, expiresAt: new Date(now.getTime() + config.sessionMaxHours * 60 * MINUTE_MS) },
    { transaction },
  );
  return token;
}

/** A session is over at its absolute expiry, or once it has been idle for `idleMinutes`. */
export function isSessionExpired(session: { expiresAt: Date; lastSeenAt: Date }, now: number, idleMinutes: number): boolean {
  return session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + idleMinutes * MINUTE_MS <= now;
}

/**
 * Sessions found in the last second, so that most requests need no query. Any change to a session or
 * a user made by this process forgets them all at once; a session ended by another process (several
 * portals on one database) stops working within SESSION_RECHECK_MS.
 */
export const SESSION_RECHECK_MS = 1_000;
const recentSessions = new LRUCache<string, ActiveSession & { lastSeenAt: number; expiresAt: number }>({ max: 10_000, ttl: SESSION_RECHECK_MS });
const forgetRecentSessions = () => recentSessions.clear();
forgetOnWrite(User, ['afterSave', 'afterDestroy', 'afterBulkUpdate', 'afterBulkDestroy'], forgetRecentSessions);
// Touching lastSeenAt changes nothing a request decides on; only ending a session does.
forgetOnWrite(Session, ['afterDestroy', 'afterBulkDestroy'], forgetRecentSessions);

type SessionRow = { sessionId: string; lastSeenAt: string; expiresAt: string } & Parameters<typeof toPublicUser>[0];

/** Runs on every request, so it is one plain query rather than a model with an include. */
export async function findActiveSession(token: string | undefined): Promise<ActiveSession | null> {
  if (!token || token.length > 100) return null;
  const sessionId = hashToken(token);
  const recent = recentSessions.get(sessionId);
  if (recent && Date.now() - recent.lastSeenAt <= TOUCH_INTERVAL_MS && Date.now() < recent.expiresAt) return { sessionId, user: recent.user };
  const [row] = await sequelize.query<SessionRow>(
    `SELECT s."id" AS "sessionId", s."lastSeenAt", s."expiresAt", u."id", u."username", u."fullName", u."email", u."role",
            u."isActive", u."lastLogin", u."createdAt"
       FROM "sessions" s JOIN "users" u ON u."id" = s."userId" WHERE s."id" = :sessionId`,
    { type: QueryTypes.SELECT, replacements: { sessionId } },
  );
  if (!row) return null;
  const now = Date.now();
  const times = { lastSeenAt: new Date(row.lastSeenAt), expiresAt: new Date(row.expiresAt) };
  if (isSessionExpired(times, now, config.sessionIdleMinutes) || !row.isActive) {
    await Session.destroy({ where: { id: sessionId } });
    return null;
  }
  let lastSeenAt = times.lastSeenAt.getTime();
  if (now - lastSeenAt > TOUCH_INTERVAL_MS) {
    await Session.update({ lastSeenAt: new Date(now) }, { where: { id: sessionId } });
    lastSeenAt = now;
  }
  const user = toPublicUser(row);
  recentSessions.set(sessionId, { sessionId, user, lastSeenAt, expiresAt: times.expiresAt.getTime() });
  return { sessionId, user };
}

export async function endSession(token: string | undefined, transaction?: Transaction): Promise<void> {
  if (token) await Session.destroy({ where: { id: hashToken(token) }, transaction });
}

export async function endUserSessions(userId: number, options: { exceptSessionId?: string; transaction?: Transaction } = {}): Promise<void> {
  const where = options.exceptSessionId ? { userId, id: { [Op.ne]: options.exceptSessionId } } : { userId };
  await Session.destroy({ where, transaction: options.transaction });
}

export async function purgeExpiredSessions(): Promise<void> {
  const idleCutoff = new Date(Date.now() - config.sessionIdleMinutes * MINUTE_MS);
  await Session.destroy({ where: { [Op.or]: [{ expiresAt: { [Op.lte]: new Date() } }, { lastSeenAt: { [Op.lte]: idleCutoff } }] } });
}
