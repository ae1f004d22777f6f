/**
 * One writer of the mirror at a time across every portal process on the database: a sync, or an
 * import (PROVIDER=file). A process takes the lease row (sync_lease) with one conditional UPDATE when it
 * is free or expired, renews it while it writes and releases it with the outcome. A process that finds
 * the lease held by a sync waits for that sync and answers its outcome, as a second caller in one
 * process does. A holder that died leaves a lease that expires within LEASE_MS; the next caller then
 * takes it over. A sync its process stopped part-way (a shutdown), or an import, has no sync outcome
 * to give: a sync waiting for it takes the lease and syncs itself. An import waits until it can take
 * the lease, whoever holds it.
 */
import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { SyncResult } from '~/shared/sync';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { Logger } from '../../logger';
import { ProviderError } from '../../provider/contract';

/** Who takes the lease: a process (one portal), named once. */
export interface LeaseHolder {
  db: Database;
  clock: Clock;
  log: Logger;
  holderId: string;
}

/** How long a lease lasts unrenewed: a dead holder blocks syncs for at most this long. */
const LEASE_MS = 30_000;
const RENEW_EVERY_MS = 10_000;
/** How often a waiting process looks whether the sync it joined, or the lease's holder, has ended. */
const POLL_MS = 200;

const LEASE = 'receipts';

/**
 * A sync its own process stopped before the end (src/server/shutdown.ts): neither a success nor the
 * provider's failure.
 */
export class SyncInterruptedError extends Error {
  constructor() {
    super('The sync was stopped part-way because its process is shutting down');
    this.name = 'SyncInterruptedError';
  }
}

/** What a sync ended with, for the processes that waited for it. */
type SyncAnswer =
  | { result: SyncResult }
  | { error: { message: string; kind: ProviderError['kind'] | null; oauthError: string | null } };

/** A sync's answer; or none, when a sync was stopped part-way or the lease was held by an import. */
type StoredOutcome = SyncAnswer | { interrupted: true } | { imported: true };

interface LeaseRow {
  run: string | null;
  expiresAt: number | string;
  outcome: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function takeLease({ db, clock, holderId }: LeaseHolder, run: string): Promise<boolean> {
  const now = clock.now();
  const rows = await db.sequelize.query(
    `UPDATE sync_lease SET holder = :holder, run = :run, "expiresAt" = :until, outcome = NULL
     WHERE name = :name AND "expiresAt" <= :now RETURNING run`,
    {
      type: QueryTypes.SELECT,
      replacements: { name: LEASE, holder: holderId, run, until: now + LEASE_MS, now },
    },
  );
  return rows.length === 1;
}

async function renewLease({ db, clock, log }: LeaseHolder, run: string): Promise<void> {
  const rows = await db.sequelize.query(
    `/* renew the sync lease */ UPDATE sync_lease SET "expiresAt" = :until WHERE name = :name
           AND run = :run RETURNING run`,
    { type: QueryTypes.SELECT, replacements: { name: LEASE, run, until: clock.now() + LEASE_MS } },
  );
  // This process stalled past the lease; the status history's unique key still keeps a change from
  // being recorded twice.
  if (rows.length === 0)
    log.warn(
      { component: 'sync' },
      'The sync lease expired while this process was writing the mirror (a sync or an import); ' +
        'another process may write beside it.',
    );
}

async function releaseLease(
  { db }: LeaseHolder,
  run: string,
  outcome: StoredOutcome,
): Promise<void> {
  await db.sequelize.query(
    'UPDATE sync_lease SET "expiresAt" = 0, outcome = :outcome WHERE name = :name AND run = :run',
    {
      replacements: { name: LEASE, run, outcome: JSON.stringify(outcome) },
    },
  );
}

async function readLease({ db }: LeaseHolder): Promise<LeaseRow | undefined> {
  const [row] = await db.sequelize.query<LeaseRow>(
    'SELECT run, "expiresAt", outcome FROM sync_lease WHERE name = :name',
    {
      type: QueryTypes.SELECT,
      replacements: { name: LEASE },
    },
  );
  return row;
}

function storedError(error: unknown): StoredOutcome {
  if (error instanceof SyncInterruptedError) return { interrupted: true };
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof ProviderError
    ? { error: { message, kind: error.kind, oauthError: error.oauthError } }
    : { error: { message, kind: null, oauthError: null } };
}

function isSyncAnswer(outcome: StoredOutcome): outcome is SyncAnswer {
  return 'result' in outcome || 'error' in outcome;
}

function answer(outcome: SyncAnswer): SyncResult {
  if ('result' in outcome) return outcome.result;
  const { message, kind, oauthError } = outcome.error;
  throw kind ? new ProviderError(message, kind, oauthError) : new Error(message);
}

/** How `work` under the lease ended. */
type Ending<T> = { result: T } | { error: unknown };

async function underLease<T>(
  holder: LeaseHolder,
  run: string,
  work: () => Promise<T>,
  outcomeOf: (ending: Ending<T>) => StoredOutcome,
): Promise<T> {
  const renewal = setInterval(
    () =>
      renewLease(holder, run).catch((error) =>
        holder.log.warn({ component: 'sync', err: error }, 'The sync lease could not be renewed'),
      ),
    RENEW_EVERY_MS,
  );
  let ending: Ending<T> | undefined;
  try {
    const result = await work();
    ending = { result };
    return result;
  } catch (error) {
    ending = { error };
    throw error;
  } finally {
    clearInterval(renewal);
    await releaseLease(holder, run, outcomeOf(ending!)).catch((error) =>
      holder.log.warn(
        { component: 'sync', err: error },
        'The sync lease could not be released (it expires by itself)',
      ),
    );
  }
}

const syncOutcome = (ending: Ending<SyncResult>): StoredOutcome =>
  'result' in ending ? { result: ending.result } : storedError(ending.error);

/** The outcome of the run `run` once it ends; null when it ended without one (its holder died) or cannot be told. */
async function awaitOutcome(
  holder: LeaseHolder,
  run: string | null,
): Promise<StoredOutcome | null> {
  for (;;) {
    const lease = await readLease(holder);
    if (!lease || lease.run !== run) return null;
    if (lease.outcome !== null) return JSON.parse(lease.outcome) as StoredOutcome;
    if (Number(lease.expiresAt) <= holder.clock.now()) return null;
    await sleep(POLL_MS);
  }
}

/**
 * Runs `sync` under the lease, or, while another process holds it, answers the outcome of that
 * process's sync; when that one was stopped part-way, or its process died, this one syncs after all.
 */
export async function syncExclusively(
  holder: LeaseHolder,
  sync: () => Promise<SyncResult>,
): Promise<SyncResult> {
  for (;;) {
    const run = randomUUID();
    if (await takeLease(holder, run)) return underLease(holder, run, sync, syncOutcome);
    const held = await readLease(holder);
    const outcome = await awaitOutcome(holder, held?.run ?? null);
    if (outcome && isSyncAnswer(outcome)) return answer(outcome);
  }
}

/**
 * Runs `work`, which writes the mirror otherwise than a sync (an import), under the lease: it waits
 * until the sync or import of any process now holding it has ended, and no other starts before it ends.
 */
export async function writeUnderLease<T>(holder: LeaseHolder, work: () => Promise<T>): Promise<T> {
  for (;;) {
    const run = randomUUID();
    if (await takeLease(holder, run))
      return underLease(holder, run, work, () => ({ imported: true }));
    await sleep(POLL_MS);
  }
}
