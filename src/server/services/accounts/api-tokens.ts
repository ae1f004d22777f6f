/**
 * Personal API tokens: a user makes them in Profile Settings for their own systems, which send
 * `Authorization: Bearer fp_…` to read what the user reads (the routes of src/shared/api-token-access.ts).
 * A token is `fp_` and 32 random bytes in base62, shown once; the database keeps its SHA-256. It works
 * until it expires (30, 90 or 365 days) or is revoked: by its owner, by an admin, or by the account
 * being disabled; deleting the account deletes it. Each token has a rate limit, API_TOKEN_RATE_PER_MINUTE,
 * counted in its own row, so that every process on the database counts together.
 *
 * SHA-256, not bcrypt: a slow hash protects secrets people choose, which can be guessed. A token holds
 * 256 random bits, so no number of guesses at its hash will find it however fast the hash is, and a
 * slow hash would only cost every API request its delay. It also lets the token be found by its hash
 * in one indexed look-up, so the comparison's timing says nothing about the token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  API_TOKEN_BYTES,
  API_TOKEN_PREFIX,
  API_TOKENS_PER_USER,
  apiTokenPrefix,
  encodeBase62,
  isApiTokenFormat,
  type ApiTokenSummary,
  type CreateApiTokenInput,
  type CreatedApiToken,
} from '~/shared/api-tokens';
import { formatDate } from '~/shared/format';
import type { PublicUser, SessionUser } from '~/shared/validation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { ApiToken } from '../../db/models';
import { toSessionUser, type UserRow } from '../../db/public-user';
import { AppError } from '../../errors';
import { recordAudit, userTarget, type AuditActor, type AuditDeps } from '../audit';
import { DAY_MS } from '~/shared/constants';

/** The rate limit's fixed window; a token's last use is recorded as the start of its latest window. */
const RATE_WINDOW_MS = 60_000;

export interface ApiTokenAuthDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'apiTokenRatePerMinute'>;
}

/** Who a request with a working token acts as, and which token it was. */
export interface ApiTokenCaller {
  user: SessionUser;
  tokenId: number;
}

const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const generateApiToken = () => API_TOKEN_PREFIX + encodeBase62(randomBytes(API_TOKEN_BYTES));

const toIso = (value: Date | string) => new Date(value).toISOString();

function toSummary(
  row: Pick<ApiToken, 'id' | 'name' | 'prefix' | 'createdAt' | 'expiresAt' | 'lastUsedAt'>,
  now: number,
): ApiTokenSummary {
  return {
    id: Number(row.id),
    name: row.name,
    prefix: row.prefix,
    createdAt: toIso(row.createdAt),
    expiresAt: toIso(row.expiresAt),
    lastUsedAt: row.lastUsedAt ? toIso(row.lastUsedAt) : null,
    expired: new Date(row.expiresAt).getTime() <= now,
  };
}

/**
 * An entry names a token by its prefix and name, never more of it; the name, chosen by its owner,
 * as a value of its own.
 */
const describeToken = (token: Pick<ApiToken, 'prefix' | 'name'>) => ({
  prefix: token.prefix,
  name: token.name,
});

/** Tokens neither revoked nor expired. */
const working = (now: number) => ({ revokedAt: null, expiresAt: { [Op.gt]: new Date(now) } });

/** The user's tokens not revoked, newest first; expired ones too, marked, until housekeeping drops them. */
export async function listApiTokens(
  { db, clock }: Pick<AuditDeps, 'db' | 'clock'>,
  userId: number,
): Promise<ApiTokenSummary[]> {
  const rows = await db.models.ApiToken.findAll({
    attributes: ['id', 'name', 'prefix', 'createdAt', 'expiresAt', 'lastUsedAt'],
    where: { userId, revokedAt: null },
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
    ],
    raw: true,
  });
  const now = clock.now();
  return rows.map((row) => toSummary(row, now));
}

/** A new token for the user, answered with the token itself: the only time anyone sees it. */
export async function createApiToken(
  deps: AuditDeps,
  actor: AuditActor,
  user: PublicUser,
  input: CreateApiTokenInput,
): Promise<CreatedApiToken> {
  const { db, clock } = deps;
  const token = generateApiToken();
  return db.sequelize.transaction(async (transaction) => {
    // The owner's row stays locked until the end (PostgreSQL; SQLite's immediate transactions already
    // take turns), so two creations at once cannot both slip under the limit.
    const owner = await db.models.User.findByPk(user.id, {
      attributes: ['id'],
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    if (!owner) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
    const now = clock.now();
    const count = await db.models.ApiToken.count({
      where: { userId: user.id, ...working(now) },
      transaction,
    });
    if (count >= API_TOKENS_PER_USER)
      throw new AppError('CONFLICT', m.apitoken_limit_reached({ max: API_TOKENS_PER_USER }));
    const row = await db.models.ApiToken.create(
      {
        userId: user.id,
        name: input.name,
        prefix: apiTokenPrefix(token),
        tokenHash: hashApiToken(token),
        createdAt: new Date(now),
        expiresAt: new Date(now + input.expiresInDays * DAY_MS),
      },
      { transaction },
    );
    const detail = { ...describeToken(row), days: input.expiresInDays };
    await recordAudit(
      deps,
      actor,
      { action: 'api-token.created', target: userTarget(user.username), detail },
      transaction,
    );
    return { ...toSummary(row, now), token };
  });
}

/** Revokes one of the user's tokens (an expired one too, to clear it from the list); anyone else's is a 404. */
export async function revokeApiToken(
  deps: AuditDeps,
  actor: AuditActor,
  user: PublicUser,
  id: number,
): Promise<void> {
  const { db, clock } = deps;
  await db.sequelize.transaction(async (transaction) => {
    const row = await db.models.ApiToken.findOne({
      where: { id, userId: user.id, revokedAt: null },
      transaction,
    });
    if (!row) throw new AppError('NOT_FOUND', m.apitoken_not_found());
    await row.update({ revokedAt: new Date(clock.now()) }, { transaction });
    await recordAudit(
      deps,
      actor,
      {
        action: 'api-token.revoked',
        target: userTarget(user.username),
        detail: describeToken(row),
      },
      transaction,
    );
  });
}

/** A token as an e-mail lists it: its name and the start of it, never more. */
export type RevokedApiToken = Pick<ApiToken, 'prefix' | 'name'>;

/**
 * Revokes every working token of the user, inside the caller's transaction (the account disabled, its
 * password reset); answers the tokens revoked, oldest first.
 */
export async function endUserApiTokens(
  { db, clock }: Pick<AuditDeps, 'db' | 'clock'>,
  userId: number,
  transaction: Transaction,
): Promise<RevokedApiToken[]> {
  const now = clock.now();
  const rows = await db.models.ApiToken.findAll({
    attributes: ['id', 'prefix', 'name'],
    where: { userId, ...working(now) },
    order: [['id', 'ASC']],
    transaction,
  });
  if (rows.length)
    await db.models.ApiToken.update(
      { revokedAt: new Date(now) },
      { where: { id: { [Op.in]: rows.map((row) => row.id) } }, transaction },
    );
  return rows.map(({ prefix, name }) => ({ prefix, name }));
}

/** An admin revokes every working token of a user; answers how many. */
export async function revokeUserApiTokens(
  deps: AuditDeps,
  actor: AuditActor,
  userId: number,
): Promise<number> {
  const { db } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const user = await db.models.User.findByPk(userId, {
      attributes: ['id', 'username'],
      transaction,
    });
    if (!user) throw new AppError('NOT_FOUND', m.users_not_found());
    const revoked = (await endUserApiTokens(deps, userId, transaction)).length;
    await recordAudit(
      deps,
      actor,
      {
        action: 'api-tokens.revoked',
        target: userTarget(user.username),
        detail: { count: revoked, reason: 'by an admin' },
      },
      transaction,
    );
    return revoked;
  });
}

/** How many working tokens each user has, for User Management: users without any are absent. */
export async function countWorkingApiTokens({
  db,
  clock,
}: Pick<AuditDeps, 'db' | 'clock'>): Promise<Map<number, number>> {
  const rows = await db.models.ApiToken.findAll({
    attributes: ['userId', [db.sequelize.fn('COUNT', db.sequelize.col('id')), 'count']],
    where: working(clock.now()),
    group: ['userId'],
    raw: true,
  });
  return new Map(
    rows.map((row) => [
      Number(row.userId),
      Number((row as unknown as { count: number | string }).count),
    ]),
  );
}

type CallerRow = UserRow &
  Pick<SessionUser, 'locale'> & {
    tokenId: number;
    prefix: string;
    name: string;
    expiresAt: Date | string;
    revokedAt: Date | string | null;
    lastUsedAt: Date | string | null;
  };

/**
 * The caller a request's token stands for, once its request is counted against the token's limit.
 * Refuses with 401 a token that is unknown, revoked (its owner disabled too) or expired, each with its
 * own message, and with 429 and the seconds to wait a token past its limit.
 */
export async function authenticateApiToken(
  deps: ApiTokenAuthDeps,
  token: string,
  clientAddress: string | null,
): Promise<ApiTokenCaller> {
  if (!isApiTokenFormat(token)) throw new AppError('AUTHENTICATION_ERROR', m.apitoken_invalid());
  const [row] = await deps.db.sequelize.query<CallerRow>(
    `SELECT t."id" AS "tokenId", t."prefix", t."name", t."expiresAt", t."revokedAt", t."lastUsedAt",
            u."id", u."username", u."fullName", u."email", u."role",
            u."isActive", u."invited", u."lastLogin", u."locale", u."createdAt"
       FROM "api_tokens" t JOIN "users" u ON u."id" = t."userId" WHERE t."tokenHash" = :tokenHash`,
    { type: QueryTypes.SELECT, replacements: { tokenHash: hashApiToken(token) } },
  );
  if (!row) throw new AppError('AUTHENTICATION_ERROR', m.apitoken_invalid());
  if (row.revokedAt !== null || !row.isActive)
    throw new AppError('AUTHENTICATION_ERROR', m.apitoken_revoked());
  const now = deps.clock.now();
  const expiresAt = new Date(row.expiresAt);
  if (expiresAt.getTime() <= now)
    throw new AppError('AUTHENTICATION_ERROR', m.apitoken_expired({ date: formatDate(expiresAt) }));
  await recordFirstUseOfDay(deps, row, now, clientAddress);
  await countTokenRequest(deps, Number(row.tokenId), now);
  return { user: toSessionUser(row), tokenId: Number(row.tokenId) };
}

/**
 * The first use of a token in a (UTC) day goes into the audit trail: enough to see when a token is in
 * use, and by whom from where, without an entry per request. Its last use is written with one
 * conditional UPDATE, so of requests at once only one records it.
 */
async function recordFirstUseOfDay(
  deps: ApiTokenAuthDeps,
  row: CallerRow,
  now: number,
  clientAddress: string | null,
): Promise<void> {
  const dayStart = new Date(now - (now % DAY_MS));
  if (row.lastUsedAt !== null && new Date(row.lastUsedAt).getTime() >= dayStart.getTime()) return;
  const tokenId = Number(row.tokenId);
  const [first] = await deps.db.models.ApiToken.update(
    { lastUsedAt: new Date(now) },
    {
      where: {
        id: tokenId,
        [Op.or]: [{ lastUsedAt: null }, { lastUsedAt: { [Op.lt]: dayStart } }],
      },
    },
  );
  if (first !== 1) return;
  await recordAudit(
    deps,
    { id: Number(row.id), username: row.username, clientAddress },
    {
      action: 'api-token.used',
      target: userTarget(row.username),
      detail: describeToken(row),
    },
  );
}

/**
 * Counts one request in the token's fixed window of a minute, in one atomic statement on its row (so
 * that processes sharing the database count together), and records the token's last use when a window
 * starts: at most once a minute, with no write of its own. Past the limit: 429 until the window ends.
 */
async function countTokenRequest(
  { db, config }: ApiTokenAuthDeps,
  tokenId: number,
  now: number,
): Promise<void> {
  const [counted] = await db.sequelize.query<{
    rateWindowStartedAt: number | string;
    rateWindowRequests: number | string;
  }>(
    `UPDATE "api_tokens" SET
       "rateWindowRequests" = CASE WHEN "rateWindowStartedAt" <= :expired THEN 1 ELSE "rateWindowRequests" + 1 END,
       "lastUsedAt" = CASE WHEN "rateWindowStartedAt" <= :expired THEN :nowDate ELSE "lastUsedAt" END,
       "rateWindowStartedAt" = CASE WHEN "rateWindowStartedAt" <= :expired THEN :now ELSE "rateWindowStartedAt" END
     WHERE "id" = :tokenId
     RETURNING "rateWindowStartedAt", "rateWindowRequests"`,
    {
      type: QueryTypes.SELECT,
      replacements: { tokenId, now, nowDate: new Date(now), expired: now - RATE_WINDOW_MS },
    },
  );
  if (!counted || Number(counted.rateWindowRequests) <= config.apiTokenRatePerMinute) return;
  const retryAfter = Math.max(
    1,
    Math.ceil((Number(counted.rateWindowStartedAt) + RATE_WINDOW_MS - now) / 1000),
  );
  throw new AppError(
    'RATE_LIMITED',
    m.apitoken_rate_limited({ limit: config.apiTokenRatePerMinute, seconds: retryAfter }),
    { retryAfter },
  );
}

/**
 * Housekeeping: tokens revoked or expired longer ago than `olderThanMs` are dropped (until then,
 * using one says why it fails).
 */
export async function purgeOldApiTokens(
  { db, clock }: Pick<AuditDeps, 'db' | 'clock'>,
  olderThanMs: number,
): Promise<void> {
  const cutoff = new Date(clock.now() - olderThanMs);
  await db.models.ApiToken.destroy({
    where: { [Op.or]: [{ revokedAt: { [Op.lt]: cutoff } }, { expiresAt: { [Op.lt]: cutoff } }] },
  });
}
