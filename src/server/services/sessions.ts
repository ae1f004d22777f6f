/**
 * Server-side sessions: the browser holds a random 256-bit token, the database only its SHA-256.
 * A session ends at logout, after an idle period, or at an absolute age, whichever comes first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { SessionUser } from '~/shared/validation';
import { config } from '../config';
import { sequelize } from '../db';
import { Session, User } from '../db/models';
import { RecentRows } from '../db/recent-rows';
import { toSessionUser } from '../db/public-user';

const MINUTE_MS = 60_000;
/** lastSeenAt is written at most once a minute, so reading pages does not write on every request. */
const TOUCH_INTERVAL_MS = MINUTE_MS;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ActiveSession {
  sessionId: string;
  user: SessionUser;
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
 * Sessions found in the last second, so that most requests need no query. Ending a session or changing
 * a user in this process forgets them all at once; a session ended by another process (several portals
 * on one database) stops working within a second.
 */
type RecentSession = ActiveSession & { lastSeenAt: number; expiresAt: number };
const recentSessions = new RecentRows<string, RecentSession>();
recentSessions.forgetOnWrite(User, ['afterSave', 'afterDestroy', 'afterBulkUpdate', 'afterBulkDestroy']);
// Touching lastSeenAt changes nothing a request decides on; only ending a session does.
recentSessions.forgetOnWrite(Session, ['afterDestroy', 'afterBulkDestroy']);

type SessionRow = { sessionId: string; lastSeenAt: string; expiresAt: string } & Parameters<typeof toSessionUser>[0];

/** Runs on every request: a session checked within the last second is taken as it was. */
export async function findActiveSession(token: string | undefined): Promise<ActiveSession | null> {
  if (!token || token.length > 100) return null;
  const sessionId = hashToken(token);
  // A copy is usable until the session expires or needs touching, whichever comes first.
  const usable = (session: RecentSession) => Date.now() < Math.min(session.expiresAt, session.lastSeenAt + TOUCH_INTERVAL_MS);
  const session = await recentSessions.read(sessionId, () => readActiveSession(sessionId), usable);
  return session && { sessionId, user: session.user };
}

/** One plain query rather than a model with an include. */
async function readActiveSession(sessionId: string): Promise<RecentSession | null> {
  const [row] = await sequelize.query<SessionRow>(
    `SELECT s."id" AS "sessionId", s."lastSeenAt", s."expiresAt", u."id", u."username", u."fullName", u."email", u."role",
            u."isActive", u."lastLogin", u."locale", u."createdAt"
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
  return { sessionId, user: toSessionUser(row), lastSeenAt, expiresAt: times.expiresAt.getTime() };
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
