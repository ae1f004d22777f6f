/**
 * A ceremony's challenge, held on the server for the browser that asked: the browser holds a random
 * token in a cookie (src/server/http/passkey-challenge.ts), the row holds its SHA-256 with the
 * challenge, its purpose, the registering user and the expiry. Taking it deletes it: a challenge works
 * once, within CHALLENGE_MINUTES, and only with the cookie of the browser it was given to.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op } from 'sequelize';
import type { Clock } from '../../../clock';
import type { Database } from '../../../db/database';

export const CHALLENGE_MINUTES = 5;

export type ChallengePurpose = 'registration' | 'sign-in';

export interface ChallengeDeps {
  db: Database;
  clock: Clock;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface HeldChallenge {
  challenge: string;
  /** A registration's user handle. */
  userHandle: string | null;
}

/** Holds the challenge; answers the token for the asking browser's cookie. */
export async function holdChallenge(
  { db, clock }: ChallengeDeps,
  purpose: ChallengePurpose,
  userId: number | null,
  { challenge, userHandle }: HeldChallenge,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.models.PasskeyChallenge.create({
    tokenHash: hashToken(token),
    purpose,
    userId,
    challenge,
    userHandle,
    expiresAt: new Date(clock.now() + CHALLENGE_MINUTES * 60_000),
  });
  return token;
}

/**
 * The challenge the cookie's token names, deleted as it is taken; null when there is none, it has
 * expired, or it was given for another purpose or user. Of two requests with one token, one gets it.
 */
export async function takeChallenge(
  { db, clock }: ChallengeDeps,
  token: string,
  purpose: ChallengePurpose,
  userId: number | null,
): Promise<HeldChallenge | null> {
  const row = await db.models.PasskeyChallenge.findOne({ where: { tokenHash: hashToken(token) } });
  if (!row) return null;
  const taken = (await db.models.PasskeyChallenge.destroy({ where: { id: row.id } })) === 1;
  if (
    !taken ||
    row.expiresAt.getTime() <= clock.now() ||
    row.purpose !== purpose ||
    row.userId !== userId
  )
    return null;
  return { challenge: row.challenge, userHandle: row.userHandle };
}

/** Challenges whose five minutes are over. */
export async function purgeExpiredPasskeyChallenges({ db, clock }: ChallengeDeps): Promise<void> {
  await db.models.PasskeyChallenge.destroy({
    where: { expiresAt: { [Op.lte]: new Date(clock.now()) } },
  });
}
