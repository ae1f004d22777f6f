/**
 * Single-use tokens sent by e-mail: a password reset's and an invitation's. The link carries 32 random
 * bytes; only their SHA-256 is stored. Issuing one ends the user's earlier ones of the same purpose, and
 * redeeming is one conditional UPDATE, so a token works once even when two requests race.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op, type Transaction } from 'sequelize';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AccountTokenPurpose } from '../../db/models';

export interface AccountTokenDeps {
  db: Database;
  clock: Clock;
}

const hashAccountToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new token for the user; their earlier unused ones of this purpose stop working. */
export async function issueAccountToken(
  { db, clock }: AccountTokenDeps,
  userId: number,
  purpose: AccountTokenPurpose,
  validForMs: number,
  transaction?: Transaction,
): Promise<string> {
  const now = clock.now();
  const token = randomBytes(32).toString('base64url');
  await db.models.AccountToken.update(
    { endedAt: new Date(now) },
    { where: { userId, purpose, endedAt: null }, transaction },
  );
  await db.models.AccountToken.create(
    {
      userId,
      purpose,
      tokenHash: hashAccountToken(token),
      expiresAt: new Date(now + validForMs),
      createdAt: new Date(now),
    },
    { transaction },
  );
  return token;
}

/** Uses the token up; answers whose it was, or null when it is unknown, used, replaced, revoked or expired. */
export async function redeemAccountToken(
  { db, clock }: AccountTokenDeps,
  token: string,
  purpose: AccountTokenPurpose,
  transaction: Transaction,
): Promise<number | null> {
  const now = new Date(clock.now());
  const where = {
    tokenHash: hashAccountToken(token),
    purpose,
    endedAt: null,
    expiresAt: { [Op.gt]: now },
  };
  const found = await db.models.AccountToken.findOne({ where, transaction });
  if (!found) return null;
  const [ended] = await db.models.AccountToken.update(
    { endedAt: now },
    { where: { ...where, id: found.id }, transaction },
  );
  return ended === 1 ? found.userId : null;
}

/** Ends the user's unused tokens of this purpose: a revoked invitation. */
export async function endAccountTokens(
  { db, clock }: AccountTokenDeps,
  userId: number,
  purpose: AccountTokenPurpose,
  transaction?: Transaction,
): Promise<void> {
  await db.models.AccountToken.update(
    { endedAt: new Date(clock.now()) },
    { where: { userId, purpose, endedAt: null }, transaction },
  );
}

/** Tokens that ended or expired a while ago are only clutter. */
export async function purgeOldAccountTokens(
  { db, clock }: AccountTokenDeps,
  olderThanMs: number,
): Promise<void> {
  const cutoff = new Date(clock.now() - olderThanMs);
  await db.models.AccountToken.destroy({
    where: { [Op.or]: [{ endedAt: { [Op.lt]: cutoff } }, { expiresAt: { [Op.lt]: cutoff } }] },
  });
}

/** Whose the token is while it still works, without using it up: what the page it leads to shows. */
export async function findAccountTokenOwner(
  { db, clock }: AccountTokenDeps,
  token: string,
  purpose: AccountTokenPurpose,
): Promise<number | null> {
  const found = await db.models.AccountToken.findOne({
    attributes: ['userId'],
    where: {
      tokenHash: hashAccountToken(token),
      purpose,
      endedAt: null,
      expiresAt: { [Op.gt]: new Date(clock.now()) },
    },
  });
  return found?.userId ?? null;
}
