/**
 * Login rate limit (settings in README.md "Configuration"): LOGIN_MAX_ATTEMPTS failures for one
 * username from one client address inside LOGIN_WINDOW_SECONDS (counted from the first of them)
 * lock that pair until the window ends. A looser cap per address stops one client from spraying
 * many usernames.
 *
 * Each counter row holds the window's failures and the checks still running. A check is counted by
 * one atomic upsert before its password is hashed, and only while failures and running checks stay
 * under the limit: parallel guesses cannot slip through, and no write lock is held while hashing.
 * When only running checks fill the limit, an attempt waits for one of them to end rather than being
 * refused: a correct password takes its check back, so parallel correct sign-ins all get through.
 * The counters live in the database only, so several portal processes on it count together.
 *
 * Before any of that, one client address and one username may each have a few checks under way in
 * this process; more wait their turn in a bounded queue (an office behind one address signing in at
 * once), and past it are refused at once with 429, uncounted, so that nobody's backlog of guesses
 * grows without bound (the checks themselves take turns between addresses, passwords.ts). Guesses that
 * wait are still bounded by the failure limits when their turn comes.
 */
import { QueryTypes } from 'sequelize';
import { rateLimitMessage } from '~/shared/format';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';

type Outcome = 'failed' | 'succeeded' | 'withdrawn';

interface Counter {
  key: string;
  limit: number;
  /** A success wipes the counter's failures (a username's from an address); else it leaves them (an address's). */
  wipedBySuccess: boolean;
}

const pairKey = (username: string, address: string) => `user ${username} from ${address}`;

interface CounterRow {
  failures: number;
  pending: number;
  windowStartedAt: number | string;
}

/** Checks one address, or one username, may have under way at once in this process. */
const MAX_CHECKS_IN_FLIGHT = 4;
/** Checks one address, or one username, may have waiting for a turn past those under way. */
const MAX_CHECKS_WAITING = 32;
/** What a refused extra check is told to wait: about one password check. */
const IN_FLIGHT_RETRY_SECONDS = 1;
/** How often a waiting attempt looks again: checks running in other processes on the database end unseen. */
const RECHECK_MS = 50;
/**
 * Far longer than a password check takes: running checks that left a counter unchanged this long
 * were lost with a process that died mid-check, and are forgotten.
 */
const LOST_AFTER_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const FAILURES_AFTER: Record<Outcome, string> = {
  // The window starts with its first failure.
  failed: 'CASE WHEN failures = 0 OR "windowStartedAt" <= :expired THEN 1 ELSE failures + 1 END',
  succeeded: '0',
  withdrawn: 'failures',
};

export interface LoginLimiterDeps {
  db: Database;
  config: Pick<Config, 'loginMaxAttempts' | 'loginMaxAttemptsPerAddress' | 'loginWindowSeconds'>;
  clock: Clock;
}

export class LoginLimiter {
  /** Attempts under way in this process, per counter key: a waiting attempt wakes as soon as one ends. */
  private readonly running = new Map<string, Set<Promise<void>>>();
  /** Checks under way in this process, per `address …` and `user …` key. */
  private readonly checksInFlight = new Map<string, number>();
  /** Checks waiting for a turn in this process, per key, and how to wake them when a check of the key ends. */
  private readonly checksWaiting = new Map<string, Set<() => void>>();

  constructor(private readonly deps: LoginLimiterDeps) {}

  private get windowMs(): number {
    return this.deps.config.loginWindowSeconds * 1000;
  }

  /**
   * Runs one password check under the limit. `check` answers what the sign-in needs on success and null
   * on failure; a success wipes the pair's failures. Refuses with 429 when the pair or the address is
   * locked, or when MAX_CHECKS_WAITING already wait for a turn (then without counting a failure).
   * `keepsFailures` names successes that are only a first step (a right password before its second
   * factor): they leave the failures as they are, or a right password between wrong codes would wipe them.
   */
  async checkLoginAttempt<T>(
    username: string,
    address: string,
    check: () => Promise<T | null>,
    keepsFailures: (result: T) => boolean = () => false,
  ): Promise<T | null> {
    const { config } = this.deps;
    return this.checkInTurn([`address ${address}`, `user ${username}`], () =>
      this.checkCounted(
        [
          { key: pairKey(username, address), limit: config.loginMaxAttempts, wipedBySuccess: true },
          {
            key: `address ${address}`,
            limit: config.loginMaxAttemptsPerAddress,
            wipedBySuccess: false,
          },
        ],
        check,
        keepsFailures,
      ),
    );
  }

  /**
   * Runs one use of a link's token (a reset, an invitation) under the address's limits of sign-in: its
   * turn among the address's checks, and its failures. `check` answers null, or throws, for a token
   * that does not work: a failure of the address, as a wrong password is.
   */
  async checkTokenAttempt<T>(address: string, check: () => Promise<T | null>): Promise<T | null> {
    const key = `address ${address}`;
    return this.checkInTurn([key], () =>
      this.checkCounted(
        [{ key, limit: this.deps.config.loginMaxAttemptsPerAddress, wipedBySuccess: false }],
        check,
        () => false,
      ),
    );
  }

  /**
   * Takes one of `limit` tries per window under `key`, counted as a failure until given back
   * (giveTryBack); answers the tries taken in the window, this one included, or null when none is left.
   * One conditional upsert: parallel tries never take more than `limit`.
   */
  async takeTry(key: string, limit: number): Promise<number | null> {
    const now = this.deps.clock.now();
    // Opened by a comment, as in tryCount.
    const rows = await this.deps.db.sequelize.query<{ failures: number }>(
      `/* take one try */ INSERT INTO login_attempts ("key", failures, pending, "windowStartedAt")
             VALUES (:key, 1, 0, :now)
       ON CONFLICT ("key") DO UPDATE SET
         failures = CASE WHEN login_attempts."windowStartedAt" <= :expired THEN 1 ELSE login_attempts.failures + 1 END,
         "windowStartedAt" = CASE WHEN login_attempts."windowStartedAt" <= :expired THEN :now
                                  ELSE login_attempts."windowStartedAt" END
       WHERE login_attempts."windowStartedAt" <= :expired OR login_attempts.failures < :limit
       RETURNING failures`,
      { type: QueryTypes.SELECT, replacements: { key, now, expired: now - this.windowMs, limit } },
    );
    return rows.length === 1 ? Number(rows[0]!.failures) : null;
  }

  /** A try that turned out right is no failure. */
  async giveTryBack(key: string): Promise<void> {
    await this.deps.db.sequelize.query(
      'UPDATE login_attempts SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END WHERE "key" = :key',
      {
        replacements: { key },
      },
    );
  }

  /** The window's length in whole minutes, for telling people how long a lock lasts. */
  get windowMinutes(): number {
    return Math.ceil(this.deps.config.loginWindowSeconds / 60);
  }

  /**
   * Counts one request against `limit` per window under `key` (the password reset's e-mails, per address
   * and per account): false once the window holds that many. Shares the counters' table and window.
   */
  async admitRequest(key: string, limit: number): Promise<boolean> {
    return (await this.takeTry(key, limit)) !== null;
  }

  async purgeOldLoginAttempts(): Promise<void> {
    await this.deps.db.sequelize.query(
      'DELETE FROM login_attempts WHERE "windowStartedAt" <= :expired AND pending = 0',
      {
        replacements: { expired: this.deps.clock.now() - this.windowMs },
      },
    );
  }

  /**
   * Runs `run` once each key has fewer than MAX_CHECKS_IN_FLIGHT checks under way, waiting for a turn
   * meanwhile; refuses with 429, at once and uncounted, when a key it waits for has MAX_CHECKS_WAITING waiting.
   */
  private async checkInTurn<T>(keys: string[], run: () => Promise<T>): Promise<T> {
    for (;;) {
      const full = keys.filter(
        (key) => (this.checksInFlight.get(key) ?? 0) >= MAX_CHECKS_IN_FLIGHT,
      );
      if (full.length === 0) break;
      if (full.some((key) => (this.checksWaiting.get(key)?.size ?? 0) >= MAX_CHECKS_WAITING)) {
        throw new AppError('RATE_LIMITED', rateLimitMessage(IN_FLIGHT_RETRY_SECONDS), {
          retryAfter: IN_FLIGHT_RETRY_SECONDS,
        });
      }
      await this.checkEnded(full);
    }
    for (const key of keys) this.checksInFlight.set(key, (this.checksInFlight.get(key) ?? 0) + 1);
    try {
      return await run();
    } finally {
      for (const key of keys) {
        const left = this.checksInFlight.get(key)! - 1;
        if (left === 0) this.checksInFlight.delete(key);
        else this.checksInFlight.set(key, left);
        // Woken in the order they came: the first to wake takes the turn, the others wait again.
        for (const wake of this.checksWaiting.get(key) ?? []) wake();
      }
    }
  }

  /** Resolves when a check of one of the keys ends; waits in each key's queue meanwhile. */
  private checkEnded(keys: string[]): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        for (const key of keys) {
          const waiting = this.checksWaiting.get(key)!;
          waiting.delete(wake);
          if (waiting.size === 0) this.checksWaiting.delete(key);
        }
        resolve();
      };
      for (const key of keys)
        this.checksWaiting.set(key, (this.checksWaiting.get(key) ?? new Set()).add(wake));
    });
  }

  private async checkCounted<T>(
    counters: Counter[],
    check: () => Promise<T | null>,
    keepsFailures: (result: T) => boolean,
  ): Promise<T | null> {
    let finish!: () => void;
    const attempt = new Promise<void>((resolve) => (finish = resolve));
    for (const { key } of counters)
      this.running.set(key, (this.running.get(key) ?? new Set()).add(attempt));
    const counted: Counter[] = [];
    let checked = false;
    let result: T | null = null;
    try {
      for (const counter of counters) {
        await this.count(counter, attempt);
        counted.push(counter);
      }
      checked = true;
      result = await check();
      return result;
    } finally {
      // A check that threw counts as failed; one never run (a later counter refused) is withdrawn.
      for (const counter of counted) {
        const succeeded = result !== null && counter.wipedBySuccess && !keepsFailures(result);
        await this.settle(
          counter.key,
          !checked
            ? 'withdrawn'
            : result === null
              ? 'failed'
              : succeeded
                ? 'succeeded'
                : 'withdrawn',
        );
      }
      for (const { key } of counters) {
        const attempts = this.running.get(key)!;
        attempts.delete(attempt);
        if (attempts.size === 0) this.running.delete(key);
      }
      finish();
    }
  }

  private othersRunning(key: string, own: Promise<void>): Promise<void>[] {
    return [...(this.running.get(key) ?? [])].filter((attempt) => attempt !== own);
  }

  /** Counts a check when the counter has room; true when it did. */
  private async tryCount({ key, limit }: Counter, now: number): Promise<boolean> {
    // Opened by a comment: Sequelize's SQLite dialect runs a statement that starts with INSERT INTO
    // without reading its rows.
    const rows = await this.deps.db.sequelize.query(
      `/* count one check */ INSERT INTO login_attempts ("key", failures, pending, "windowStartedAt")
             VALUES (:key, 0, 1, :now)
       ON CONFLICT ("key") DO UPDATE SET
         failures = CASE WHEN login_attempts."windowStartedAt" <= :expired THEN 0 ELSE login_attempts.failures END,
         pending = login_attempts.pending + 1
       WHERE (CASE WHEN login_attempts."windowStartedAt" <= :expired THEN 0
                   ELSE login_attempts.failures END) + login_attempts.pending < :limit
       RETURNING pending`,
      { type: QueryTypes.SELECT, replacements: { key, now, expired: now - this.windowMs, limit } },
    );
    return rows.length === 1;
  }

  private async readCounter(key: string): Promise<CounterRow | undefined> {
    const [row] = await this.deps.db.sequelize.query<CounterRow>(
      'SELECT failures, pending, "windowStartedAt" FROM login_attempts WHERE "key" = :key',
      {
        type: QueryTypes.SELECT,
        replacements: { key },
      },
    );
    return row;
  }

  /** Counts one check on the counter, waiting while running checks fill it; 429 when failures do. */
  private async count(counter: Counter, own: Promise<void>): Promise<void> {
    let unchanged: { row: string; since: number } | undefined;
    for (;;) {
      const now = this.deps.clock.now();
      if (await this.tryCount(counter, now)) return;
      const row = await this.readCounter(counter.key);
      if (!row) continue;
      const windowEndsAt = Number(row.windowStartedAt) + this.windowMs;
      if (windowEndsAt > now && row.failures >= counter.limit) {
        const retryAfter = Math.max(1, Math.ceil((windowEndsAt - now) / 1000));
        throw new AppError('RATE_LIMITED', rateLimitMessage(retryAfter), { retryAfter });
      }
      const seen = `${row.failures} ${row.pending} ${row.windowStartedAt}`;
      if (unchanged?.row !== seen) unchanged = { row: seen, since: now };
      else if (now - unchanged.since >= LOST_AFTER_MS) {
        await this.deps.db.sequelize.query(
          'UPDATE login_attempts SET pending = 0 WHERE "key" = :key AND failures = :failures AND pending = :pending',
          {
            replacements: { key: counter.key, failures: row.failures, pending: row.pending },
          },
        );
        unchanged = undefined;
        continue;
      }
      await Promise.race([...this.othersRunning(counter.key, own), sleep(RECHECK_MS)]);
    }
  }

  /** Failures the username may still have from the address before the pair locks for (at most) `lockMinutes`. */
  async failuresLeft(
    username: string,
    address: string,
  ): Promise<{ left: number; lockMinutes: number }> {
    const row = await this.readCounter(pairKey(username, address));
    const inWindow =
      row !== undefined && Number(row.windowStartedAt) + this.windowMs > this.deps.clock.now();
    return {
      left: Math.max(0, this.deps.config.loginMaxAttempts - (inWindow ? row.failures : 0)),
      lockMinutes: Math.ceil(this.windowMs / 60_000),
    };
  }

  /** A check forgotten as lost may still end after all: the count of running checks never goes below zero. */
  private async settle(key: string, outcome: Outcome): Promise<void> {
    const now = this.deps.clock.now();
    const startsWindow =
      outcome === 'failed' ? 'failures = 0 OR "windowStartedAt" <= :expired' : 'FALSE';
    await this.deps.db.sequelize.query(
      `UPDATE login_attempts SET
         pending = CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END,
         failures = ${FAILURES_AFTER[outcome]},
         "windowStartedAt" = CASE WHEN ${startsWindow} THEN :now ELSE "windowStartedAt" END
       WHERE "key" = :key`,
      { replacements: { key, now, expired: now - this.windowMs } },
    );
  }
}
