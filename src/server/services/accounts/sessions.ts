/**
 * Server-side sessions: the browser holds a random 256-bit token, the database only its SHA-256.
 * A session ends at logout, after an idle period, or at an absolute age, whichever comes first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { SessionUser } from '~/shared/validation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { toSessionUser } from '../../db/public-user';
import { RecentRows } from '../../db/recent-rows';

const MINUTE_MS = 60_000;
/** lastSeenAt is written at most once a minute, so reading pages does not write on every request. */
const TOUCH_INTERVAL_MS = MINUTE_MS;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ActiveSession {
  sessionId: string;
  user: SessionUser;
}

type RecentSession = ActiveSession & { lastSeenAt: number; expiresAt: number };

/**
 * Sessions found in the last second, so that most requests need no query. Ending a session or changing
 * a user in this process forgets them all at once; a session ended by another process (several portals
 * on one database) stops working within a second.
 */
export type SessionCache = RecentRows<string, RecentSession>;

export function createSessionCache(db: Database): SessionCache {
  const cache: SessionCache = new RecentRows();
  cache.forgetOnWrite(db.models.User, [
    'afterSave',
    'afterDestroy',
    'afterBulkUpdate',
    'afterBulkDestroy',
  ]);
  // Touching lastSeenAt changes nothing a request decides on; only ending a session does.
  cache.forgetOnWrite(db.models.Session, ['afterDestroy', 'afterBulkDestroy']);
  return cache;
}

export interface SessionDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours'>;
}

export async function createSession(
  { db, clock, config }: SessionDeps,
  userId: number,
  transaction?: Transaction,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  await db.models.Session.create(
    {
      id: hashToken(token),
      userId,
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + config.sessionMaxHours * 60 * MINUTE_MS),
    },
    { transaction },
  );
  return token;
}

/** A session is over at its absolute expiry, or once it has been idle for `idleMinutes`. */
export function isSessionExpired(
  session: { expiresAt: Date; lastSeenAt: Date },
  now: number,
  idleMinutes: number,
): boolean {
  return (
    session.expiresAt.getTime() <= now ||
    session.lastSeenAt.getTime() + idleMinutes * MINUTE_MS <= now
  );
}

type SessionRow = { sessionId: string; lastSeenAt: string; expiresAt: string } & Parameters<
  typeof toSessionUser
>[0];

/** Runs on every request: a session checked within the last second is taken as it was. */
export async function findActiveSession(
  deps: SessionDeps & { sessionCache: SessionCache },
  token: string | undefined,
): Promise<ActiveSession | null> {
  if (!token || token.length > 100) return null;
  const sessionId = hashToken(token);
  // A copy is usable until the session expires or needs touching, whichever comes first.
  const usable = (session: RecentSession) =>
    deps.clock.now() < Math.min(session.expiresAt, session.lastSeenAt + TOUCH_INTERVAL_MS);
  const session = await deps.sessionCache.read(
    sessionId,
    () => readActiveSession(deps, sessionId),
    usable,
  );
  return session && { sessionId, user: session.user };
}

/** One plain query rather than a model with an include. */
async function readActiveSession(
  { db, clock, config }: SessionDeps,
  sessionId: string,
): Promise<RecentSession | null> {
  const [row] = await db.sequelize.query<SessionRow>(
    `SELECT s."id" AS "sessionId", s."lastSeenAt", s."expiresAt",
            u."id", u."username", u."fullName", u."email", u."role",
            u."isActive", u."lastLogin", u."locale", u."createdAt"
       FROM "sessions" s JOIN "users" u ON u."id" = s."userId" WHERE s."id" = :sessionId`,
    { type: QueryTypes.SELECT, replacements: { sessionId } },
  );
  if (!row) return null;
  const now = clock.now();
  const times = { lastSeenAt: new Date(row.lastSeenAt), expiresAt: new Date(row.expiresAt) };
  if (isSessionExpired(times, now, config.sessionIdleMinutes) || !row.isActive) {
    await db.models.Session.destroy({ where: { id: sessionId } });
    return null;
  }
  let lastSeenAt = times.lastSeenAt.getTime();
  if (now - lastSeenAt > TOUCH_INTERVAL_MS) {
    await db.models.Session.update({ lastSeenAt: new Date(now) }, { where: { id: sessionId } });
    lastSeenAt = now;
  }
  return { sessionId, user: toSessionUser(row), lastSeenAt, expiresAt: times.expiresAt.getTime() };
}

export async function endSession(
  { db }: { db: Database },
  token: string | undefined,
  transaction?: Transaction,
): Promise<void> {
  if (token) await db.models.Session.destroy({ where: { id: hashToken(token) }, transaction });
}

export async function endUserSessions(
  { db }: { db: Database },
  userId: number,
  options: { exceptSessionId?: string; transaction?: Transaction } = {},
): Promise<void> {
  const where = options.exceptSessionId
    ? { userId, id: { [Op.ne]: options.exceptSessionId } }
    : { userId };
  await db.models.Session.destroy({ where, transaction: options.transaction });
}

/** Sessions neither ended nor expired, for the metrics. */
export async function countActiveSessions({ db, clock, config }: SessionDeps): Promise<number> {
  const now = clock.now();
  const idleCutoff = new Date(now - config.sessionIdleMinutes * MINUTE_MS);
  return db.models.Session.count({
    where: { expiresAt: { [Op.gt]: new Date(now) }, lastSeenAt: { [Op.gt]: idleCutoff } },
  });
}

export async function purgeExpiredSessions({ db, clock, config }: SessionDeps): Promise<void> {
  const now = clock.now();
  const idleCutoff = new Date(now - config.sessionIdleMinutes * MINUTE_MS);
  await db.models.Session.destroy({
    where: {
      [Op.or]: [
        { expiresAt: { [Op.lte]: new Date(now) } },
        { lastSeenAt: { [Op.lte]: idleCutoff } },
      ],
    },
  });
}
