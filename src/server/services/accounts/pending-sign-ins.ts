/**
 * A sign-in whose password was right and whose second step (a code, or an enrolment first) is still to
 * come. The browser holds a random token in a cookie (src/server/http/two-factor-pending.ts); the
 * server holds its SHA-256 with the user, the codes tried and the expiry. A pending sign-in takes at
 * most PENDING_CODE_TRIES codes, then the password must be given again, and finishing the sign-in
 * deletes it: the cookie works once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op, type Transaction } from 'sequelize';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';

export const PENDING_SIGN_IN_MINUTES = 5;
/** Codes one pending sign-in may try, right or wrong. */
export const PENDING_CODE_TRIES = 5;

export interface PendingSignInDeps {
  db: Database;
  clock: Clock;
}

const hashPendingToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new pending sign-in for the user; answers the token for its cookie. */
export async function openPendingSignIn(
  { db, clock }: PendingSignInDeps,
  userId: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.models.PendingSignIn.create({
    userId,
    tokenHash: hashPendingToken(token),
    expiresAt: new Date(clock.now() + PENDING_SIGN_IN_MINUTES * 60_000),
  });
  return token;
}

/** The user of a pending sign-in that may still go on (unexpired, codes left); null otherwise. */
export async function findPendingSignIn(
  { db, clock }: PendingSignInDeps,
  token: string,
): Promise<number | null> {
  const found = await db.models.PendingSignIn.findOne({
    attributes: ['userId'],
    where: {
      tokenHash: hashPendingToken(token),
      expiresAt: { [Op.gt]: new Date(clock.now()) },
      codesTried: { [Op.lt]: PENDING_CODE_TRIES },
    },
  });
  return found?.userId ?? null;
}

/**
 * Counts one code against the pending sign-in; answers its user, or null when it has expired, has no
 * codes left or is unknown. One conditional UPDATE: parallel codes cannot take more than their share.
 */
export async function takePendingCodeTry(
  { db, clock }: PendingSignInDeps,
  token: string,
): Promise<number | null> {
  const tokenHash = hashPendingToken(token);
  const [counted] = await db.models.PendingSignIn.update(
    { codesTried: db.sequelize.literal('"codesTried" + 1') },
    {
      where: {
        tokenHash,
        expiresAt: { [Op.gt]: new Date(clock.now()) },
        codesTried: { [Op.lt]: PENDING_CODE_TRIES },
      },
    },
  );
  if (counted !== 1) return null;
  const found = await db.models.PendingSignIn.findOne({
    attributes: ['userId'],
    where: { tokenHash },
  });
  return found?.userId ?? null;
}

/** Ends the pending sign-in as it finishes; false when it was ended already (a replayed cookie). */
export async function endPendingSignIn(
  { db }: PendingSignInDeps,
  token: string,
  transaction?: Transaction,
): Promise<boolean> {
  return (
    (await db.models.PendingSignIn.destroy({
      where: { tokenHash: hashPendingToken(token) },
      transaction,
    })) === 1
  );
}

/** Pending sign-ins whose five minutes are over. */
export async function purgeExpiredPendingSignIns({ db, clock }: PendingSignInDeps): Promise<void> {
  await db.models.PendingSignIn.destroy({
    where: { expiresAt: { [Op.lte]: new Date(clock.now()) } },
  });
}
