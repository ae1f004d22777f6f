/** Password hashing: bcrypt at cost 12 over a SHA-256 pre-hash, so all 128 characters count. */
import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { FairQueue } from '../fair-queue';

const BCRYPT_COST = 12;

/**
 * bcrypt runs on libuv's thread pool, which the SQLite driver (and file access) share. Unbounded, a
 * burst of sign-ins takes every thread for seconds and each query, the limiter's included, waits
 * behind the hashes; so hashes queue here and leave two threads free. The queue takes turns between
 * whoever asked (a sign-in's client address): one address's backlog of guesses never holds up the
 * sign-in of another.
 */
const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
const hashWork = new FairQueue(Math.max(1, THREAD_POOL_SIZE - 2));

/** Whose turn a hash takes in the queue when nobody in particular asked (the start-up's own hashes). */
const PORTAL_TURN = 'portal';

// bcrypt reads only the first 72 bytes; the base64 SHA-256 (44 bytes, no NUL) carries every character.
const prehash = (password: string) => createHash('sha256').update(password, 'utf8').digest('base64');

/** `turn`: who asks (a client address), which the queue takes turns between. */
export function hashPassword(password: string, turn = PORTAL_TURN): Promise<string> {
  return hashWork.run(turn, () => bcrypt.hash(prehash(password), BCRYPT_COST));
}

export function verifyPassword(password: string, hash: string, turn = PORTAL_TURN): Promise<boolean> {
  return hashWork.run(turn, () => bcrypt.compare(prehash(password), hash));
}

let decoyHash: Promise<string> | undefined;

/** Made at start-up, so that not even the first unknown username pays for hashing it. */
export function prepareDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}

/** Spends the time of one real comparison, so an unknown username answers as slowly as a wrong password. */
export async function spendVerifyTime(password: string, turn = PORTAL_TURN): Promise<false> {
  await verifyPassword(password, await prepareDecoyHash(), turn);
  return false;
}

/** A strong password for generated accounts (24 characters of base64url). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
