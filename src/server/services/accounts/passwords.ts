/** Password hashing: bcrypt over a SHA-256 pre-hash, so all 128 characters count. */
import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { FairQueue } from '../../fair-queue';

/**
 * bcrypt runs on libuv's thread pool, which the SQLite driver (and file access) share. Unbounded, a
 * burst of sign-ins takes every thread for seconds and each query, the limiter's included, waits
 * behind the hashes; so hashes queue here and leave two threads free.
 */
const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;

/** Whose turn a hash takes in the queue when nobody in particular asked (the start-up's own hashes). */
const PORTAL_TURN = 'portal';

// bcrypt reads only the first 72 bytes; the base64 SHA-256 (44 bytes, no NUL) carries every character.
const prehash = (password: string) =>
  createHash('sha256').update(password, 'utf8').digest('base64');

/**
 * The portal's password hashing. The queue takes turns between whoever asked (a sign-in's client
 * address): one address's backlog of guesses never holds up the sign-in of another.
 */
export class PasswordHasher {
  private readonly queue = new FairQueue(Math.max(1, THREAD_POOL_SIZE - 2));
  private decoyHash: Promise<string> | undefined;

  /** @param cost bcrypt's cost for new hashes (PASSWORD_HASH_COST); a stored hash keeps its own. */
  constructor(private readonly cost: number) {}

  /** `turn`: who asks (a client address), which the queue takes turns between. */
  hash(password: string, turn = PORTAL_TURN): Promise<string> {
    return this.queue.run(turn, () => bcrypt.hash(prehash(password), this.cost));
  }

  verify(password: string, hash: string, turn = PORTAL_TURN): Promise<boolean> {
    return this.queue.run(turn, () => bcrypt.compare(prehash(password), hash));
  }

  /** Made at start-up, so that not even the first unknown username pays for hashing it. */
  prepareDecoy(): Promise<string> {
    this.decoyHash ??= this.hash(randomBytes(16).toString('hex'));
    return this.decoyHash;
  }

  /** Spends the time of one real comparison, so an unknown username answers as slowly as a wrong password. */
  async spendVerifyTime(password: string, turn = PORTAL_TURN): Promise<false> {
    await this.verify(password, await this.prepareDecoy(), turn);
    return false;
  }
}

/** A strong password for generated accounts (24 characters of base64url). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
