/**
 * The outbox: work for other systems is written here and done by a worker, so an outage of theirs
 * never blocks or fails the work that produced it. It has two lanes with one set of rules:
 * - e-mails (`outbox`), sent through the mailer;
 * - jobs (`outbox_jobs`), each done by the handler registered for its kind (forwarding to the
 *   provider, webhook deliveries).
 * An entry is claimed with a lease before it is tried (several processes never try one twice),
 * retried with growing waits while the other side refuses or is away, and given up a day after it was
 * written unless its kind says otherwise. Entries survive restarts: they are rows.
 *
 * A batch is claimed at once, but each entry's claim is renewed just before it is tried and every
 * quarter of a claim while it is tried (an attempt may outlast one claim, though not LONGEST_ATTEMPT_MS),
 * and its outcome is written only while that claim is still this process's: an entry whose claim ran
 * out while it waited in the batch, and that another process took meanwhile, is that process's to try
 * and to record. A process claims only jobs of kinds it has a handler for: during a rolling upgrade an
 * older process leaves a newer kind to the newer ones. Jobs that share an `orderingKey` run one at a
 * time in the order they were written.
 */
import {
  Op,
  QueryTypes,
  type InferAttributes,
  type ModelStatic,
  type Transaction,
  type WhereOptions,
} from 'sequelize';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { OutboxJob, OutboxMessage } from '../../db/models';
import type { Logger } from '../../logger';
import type { Mailer, OutgoingMail } from '../../mail/mailer';
import type { OutboxMetrics } from '../../metrics';

const POLL_INTERVAL_MS = 5_000;
const BATCH = 20;
/** An entry's claim lasts this long; it is renewed every quarter of it while the entry is tried. */
const CLAIM_MS = 2 * 60_000;
/**
 * Past this an attempt is taken to hang: its claim is no longer renewed, and runs out for another process
 * to try the entry. Longer than any call the handlers make takes, with its own time limits and retries.
 */
const LONGEST_ATTEMPT_MS = 10 * 60_000;
const LONGEST_RETRY_MS = 60 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Jobs of a batch run this many at a time. */
const JOBS_AT_ONCE = 4;

export type OutboxEntry = OutgoingMail & { userId: number | null };

/** A job to write: its kind names the handler that will do it; the payload is stored as JSON. */
export interface JobEntry {
  kind: string;
  payload: unknown;
  /**
   * Jobs with one key run one at a time, oldest first: a job is not claimed while an older one with its
   * key is neither done nor given up. Write such jobs in transactions that first lock a row they share
   * (the pre-alert's), so that their ids follow the order their transactions commit in.
   */
  orderingKey?: string;
}

/** What a handler learns of the job it does. */
export interface JobAttempt {
  id: number;
  kind: string;
  /** Earlier attempts (0 on the first). */
  attempts: number;
  createdAt: Date;
}

/**
 * Does one job. Returning is success; throwing means "try again later", unless the error is a
 * `JobRefused`, which gives the job up at once (the payload can never succeed).
 */
export interface JobHandler {
  run(payload: unknown, job: JobAttempt): Promise<void>;
  /** The first wait before a retry; it doubles each time up to an hour. MAIL_RETRY_SECONDS by default. */
  firstRetryMs?: number;
  /** How long after it was written the job is given up. A day by default. */
  giveUpAfterMs?: number;
  /** Told once when the job is given up, with the last error. */
  gaveUp?(payload: unknown, job: JobAttempt, error: string): Promise<void>;
}

type Lane = 'mail' | 'job';
/** What an attempt writes to its entry: the fields of either lane's rows it sets. */
type Outcome = Partial<
  Pick<
    InferAttributes<OutboxMessage>,
    | 'sentAt'
    | 'attempts'
    | 'lastError'
    | 'nextAttemptAt'
    | 'failedAt'
    | 'textBody'
    | 'htmlBody'
    | 'unsubscribeUrl'
  >
> &
  Partial<Pick<InferAttributes<OutboxJob>, 'doneAt'>>;

/**
 * What is left of an e-mail once it is sent or given up: its envelope (to whom, the subject, when)
 * without its body, which may hold a working reset or invitation link, or an unsubscribe link.
 */
const SPENT_MESSAGE = { textBody: '', htmlBody: '', unsubscribeUrl: null } as const;

/** Thrown by a handler when retrying cannot help. */
export class JobRefused extends Error {}

export interface OutboxDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'mailRetrySeconds'>;
  mailer: Mailer;
  log: Logger;
  metrics: OutboxMetrics;
  /** How often the claim of an entry being tried is renewed: a quarter of a claim unless a test sets less. */
  claimRenewalMs?: number;
}

export interface Backlog {
  pending: number;
  oldestAgeSeconds: number;
  /** Those whose delivery failed at least once and is retried. */
  retrying: number;
}

/** What waits in one of the outbox's tables (`where`: neither done nor given up on). */
async function backlogOf(
  model: ModelStatic<OutboxJob> | ModelStatic<OutboxMessage>,
  where: WhereOptions,
  clock: Clock,
): Promise<Backlog> {
  const table = model as ModelStatic<OutboxJob>;
  const [pending, oldest, retrying] = await Promise.all([
    table.count({ where }),
    table.min<Date | string | null, OutboxJob>('createdAt', { where }),
    table.count({ where: { ...where, attempts: { [Op.gt]: 0 } } }),
  ]);
  const oldestAgeSeconds = oldest
    ? Math.max(0, Math.round((clock.now() - new Date(oldest).getTime()) / 1000))
    : 0;
  return { pending, oldestAgeSeconds, retrying };
}

/** The e-mails waiting, as /metrics' portal_outbox_pending_messages counts them. */
export function readOutboxBacklog({ db, clock }: { db: Database; clock: Clock }): Promise<Backlog> {
  return backlogOf(db.models.OutboxMessage, { sentAt: null, failedAt: null }, clock);
}

/**
 * The jobs waiting (forwards to the provider, webhook deliveries), as /metrics'
 * portal_outbox_pending_jobs counts them.
 */
export function readJobBacklog({ db, clock }: { db: Database; clock: Clock }): Promise<Backlog> {
  return backlogOf(db.models.OutboxJob, { doneAt: null, failedAt: null }, clock);
}

/** Wakes the worker once the entries are visible to it: at once, or when the transaction commits. */
function kickWhenWritten(outbox: Outbox, transaction: Transaction | undefined): void {
  if (transaction) transaction.afterCommit(() => outbox.kick());
  else outbox.kick();
}

/** Writes jobs for the worker to do, and wakes it; inside `transaction`, they exist only if it commits. */
export async function enqueueJobs(
  { db, clock, outbox }: { db: Database; clock: Clock; outbox: Outbox },
  jobs: JobEntry[],
  transaction?: Transaction,
): Promise<void> {
  if (jobs.length === 0) return;
  const now = new Date(clock.now());
  await db.models.OutboxJob.bulkCreate(
    jobs.map((job) => ({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      orderingKey: job.orderingKey ?? null,
      nextAttemptAt: now,
      createdAt: now,
    })),
    { transaction },
  );
  kickWhenWritten(outbox, transaction);
}

/** Jobs done or given up on are kept for a while (to look into), then dropped. */
export async function purgeFinishedJobs(
  { db, clock }: { db: Database; clock: Clock },
  olderThanMs: number,
): Promise<void> {
  const before = new Date(clock.now() - olderThanMs);
  await db.models.OutboxJob.destroy({
    where: { [Op.or]: [{ doneAt: { [Op.lt]: before } }, { failedAt: { [Op.lt]: before } }] },
  });
}

/**
 * E-mails sent or given up are kept for a while without their bodies (to see what went out, and what
 * failed), then dropped. A body still there (written before bodies were cleared) goes at once.
 */
export async function purgeSpentMessages(
  { db, clock }: { db: Database; clock: Clock },
  olderThanMs: number,
): Promise<void> {
  const spent = { [Op.or]: [{ sentAt: { [Op.ne]: null } }, { failedAt: { [Op.ne]: null } }] };
  await db.models.OutboxMessage.update(SPENT_MESSAGE, {
    where: { ...spent, textBody: { [Op.ne]: '' } },
  });
  const before = new Date(clock.now() - olderThanMs);
  await db.models.OutboxMessage.destroy({
    where: { [Op.or]: [{ sentAt: { [Op.lt]: before } }, { failedAt: { [Op.lt]: before } }] },
  });
}

/** Writes the messages for the worker to send, and wakes it. */
export async function enqueueMessages(
  { db, clock, outbox }: { db: Database; clock: Clock; outbox: Outbox },
  messages: OutboxEntry[],
  transaction?: Transaction,
): Promise<void> {
  if (messages.length === 0) return;
  const now = new Date(clock.now());
  await db.models.OutboxMessage.bulkCreate(
    messages.map((message) => ({
      userId: message.userId,
      recipient: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html,
      unsubscribeUrl: message.unsubscribeUrl,
      nextAttemptAt: now,
      // Written by the portal's clock, as every time the outbox compares it with.
      createdAt: now,
    })),
    { transaction },
  );
  kickWhenWritten(outbox, transaction);
}

/**
 * The worker: does what is due in both lanes, once at a time in this process, every few seconds and
 * at each enqueue.
 */
export class Outbox {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly handlers = new Map<string, JobHandler>();

  constructor(private readonly deps: OutboxDeps) {}

  /** Names who does jobs of `kind`; the composition root registers every kind before start(). */
  handle(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** `firstMs` (MAIL_RETRY_SECONDS, 30 s, by default), then twice as long each time, up to an hour between attempts. */
  retryDelayMs(attempts: number, firstMs = this.deps.config.mailRetrySeconds * 1000): number {
    return Math.min(firstMs * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
  }

  /** Sends the e-mails due now; answers how many it tried. Nothing while mail is not configured. */
  async deliverDueMessages(): Promise<number> {
    if (!this.deps.mailer.enabled) return 0;
    const { ids, until } = await this.claimDue('outbox', 'sentAt', new Date(this.deps.clock.now()));
    if (ids.length === 0) return 0;
    const messages = await this.deps.db.models.OutboxMessage.findAll({
      where: { id: { [Op.in]: ids } },
      order: [['id', 'ASC']],
    });
    for (const message of messages) await this.deliver(message, until);
    return messages.length;
  }

  /**
   * Does the jobs due now, a few at a time (one slow endpoint does not hold the others up); answers
   * how many it tried.
   */
  async runDueJobs(): Promise<number> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return 0;
    const { ids, until } = await this.claimDue(
      'outbox_jobs',
      'doneAt',
      new Date(this.deps.clock.now()),
      {
        // Only kinds this process can do; and a job whose key has an older job not yet finished waits for it.
        condition: `"kind" IN (:kinds) AND ("orderingKey" IS NULL OR NOT EXISTS (
        SELECT 1 FROM "outbox_jobs" "older"
        WHERE "older"."orderingKey" = "outbox_jobs"."orderingKey" AND "older"."id" < "outbox_jobs"."id"
           AND "older"."doneAt" IS NULL AND "older"."failedAt" IS NULL))`,
        replacements: { kinds },
      },
    );
    if (ids.length === 0) return 0;
    const jobs = await this.deps.db.models.OutboxJob.findAll({
      where: { id: { [Op.in]: ids } },
      order: [['id', 'ASC']],
    });
    for (let start = 0; start < jobs.length; start += JOBS_AT_ONCE) {
      await Promise.all(
        jobs.slice(start, start + JOBS_AT_ONCE).map((job) => this.runJob(job, until)),
      );
    }
    return jobs.length;
  }

  /** Runs the worker now (after an enqueue), once at a time; a kick during a run makes it go round again. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        while (!this.stopped && (await this.deliverDueMessages()) === BATCH);
        while (!this.stopped && (await this.runDueJobs()) === BATCH);
      } while (this.again && !this.stopped);
    })()
      .catch((error) => this.deps.log.error({ component: 'outbox', err: error }, 'Outbox failed'))
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Settles once the worker has nothing running: what follows an enqueue's kick has been tried. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), POLL_INTERVAL_MS).unref();
  }

  /** Shutdown: no more claims; the batch being done is finished (its entries are marked done or retried). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.idle();
  }

  /**
   * Takes the due entries of one lane for this process, all claimed until the answered time: a claim is
   * one statement, so two processes never share one. `extra` narrows what may be claimed.
   */
  private async claimDue(
    table: 'outbox' | 'outbox_jobs',
    doneColumn: 'sentAt' | 'doneAt',
    now: Date,
    extra: { condition: string; replacements: Record<string, unknown> } = {
      condition: '1 = 1',
      replacements: {},
    },
  ): Promise<{ ids: number[]; until: Date }> {
    const claimable =
      `"${doneColumn}" IS NULL AND "failedAt" IS NULL AND "nextAttemptAt" <= :now` +
      ' AND ("claimedUntil" IS NULL OR "claimedUntil" < :now)';
    const until = new Date(now.getTime() + CLAIM_MS);
    // SQLite's UPDATE takes no LIMIT: the batch is chosen first.
    const rows = await this.deps.db.sequelize.query<{ id: number }>(
      `WITH "due" AS (SELECT "id" FROM "${table}" WHERE ${claimable} AND ${extra.condition}
             ORDER BY "id" LIMIT ${BATCH})
       UPDATE "${table}" SET "claimedUntil" = :until WHERE "id" IN (SELECT "id" FROM "due")
       AND ${claimable} RETURNING "id"`,
      { type: QueryTypes.SELECT, replacements: { ...extra.replacements, now, until } },
    );
    return { ids: rows.map((row) => Number(row.id)), until };
  }

  /**
   * Renews the entry's claim for a whole CLAIM_MS just before it is tried (whileClaimed renews it while it
   * is); answers the new claim, or null when it is no longer this process's. A claim's time names it: each
   * new claim of an entry ends later than the one it replaces, so an unchanged time means nobody else has
   * claimed the entry since.
   */
  private async renewClaim(lane: Lane, id: number, held: Date): Promise<Date | null> {
    const until = new Date(this.deps.clock.now() + CLAIM_MS);
    return (await this.writeWhileClaimed(lane, id, held, { claimedUntil: until })) ? until : null;
  }

  /** Writes an entry's outcome (and ends the claim) only while `held` is still its claim; answers whether it did. */
  private async finish(
    lane: Lane,
    id: number,
    held: Date | Date[],
    outcome: Outcome,
  ): Promise<boolean> {
    if (await this.writeWhileClaimed(lane, id, held, { ...outcome, claimedUntil: null }))
      return true;
    this.deps.log.warn(
      { component: 'outbox', lane, id },
      'An outbox entry was claimed by another process while this one tried it; its outcome is left to that process',
    );
    return false;
  }

  /** `held` is the claim, or the claims it may be (one a renewal may have written though its answer was lost). */
  private async writeWhileClaimed(
    lane: Lane,
    id: number,
    held: Date | Date[],
    values: Outcome & { claimedUntil: Date | null },
  ): Promise<boolean> {
    const { OutboxMessage, OutboxJob } = this.deps.db.models;
    const options = { where: { id, claimedUntil: held } };
    const [updated] =
      lane === 'mail'
        ? await OutboxMessage.update(values, options)
        : await OutboxJob.update(values, options);
    return updated === 1;
  }

  /**
   * Runs `attempt` while renewing the entry's claim, which it holds as `claim`; answers the claim held
   * once it has ended (or the claims it may be), and what it threw. A renewal that finds the claim gone
   * stops renewing: the outcome will not be written either. An attempt past LONGEST_ATTEMPT_MS is left
   * to run out its claim.
   */
  private async whileClaimed(
    lane: Lane,
    id: number,
    claim: Date,
    attempt: () => Promise<void>,
  ): Promise<{ claim: Date | Date[]; failure: { error: unknown } | null }> {
    const { clock, log } = this.deps;
    const startedAt = clock.now();
    let held: Date | Date[] = claim;
    let renewing = Promise.resolve();
    const renew = async () => {
      if (clock.now() - startedAt > LONGEST_ATTEMPT_MS) {
        clearInterval(timer);
        log.warn(
          { component: 'outbox', lane, id, triedMinutes: LONGEST_ATTEMPT_MS / 60_000 },
          'An outbox entry has been tried for longer than an attempt may take; its claim is left to run out',
        );
        return;
      }
      const until = new Date(clock.now() + CLAIM_MS);
      try {
        if (await this.writeWhileClaimed(lane, id, held, { claimedUntil: until })) held = until;
        else clearInterval(timer);
      } catch (error) {
        // The renewal may have been written though its answer was lost: either claim is this process's.
        held = [...[held].flat(), until];
        log.warn(
          { component: 'outbox', lane, id, err: error },
          'The claim of an outbox entry being tried could not be renewed',
        );
      }
    };
    // Renewals take turns, so the outcome is written with the claim the last one wrote.
    const timer = setInterval(
      () => (renewing = renewing.then(renew)),
      this.deps.claimRenewalMs ?? CLAIM_MS / 4,
    );
    let failure: { error: unknown } | null = null;
    try {
      await attempt();
    } catch (error) {
      failure = { error };
    }
    clearInterval(timer);
    await renewing;
    return { claim: held, failure };
  }

  private async runJob(job: OutboxJob, batchClaim: Date): Promise<void> {
    const { clock, log, metrics } = this.deps;
    const renewed = await this.renewClaim('job', job.id, batchClaim);
    // Its claim ran out while it waited in the batch, and another process has it now.
    if (renewed === null) return;
    const attempt: JobAttempt = {
      id: job.id,
      kind: job.kind,
      attempts: job.attempts,
      createdAt: new Date(job.createdAt),
    };
    // Claimed by kind: this process has its handler.
    const handler = this.handlers.get(job.kind)!;
    const { claim, failure } = await this.whileClaimed('job', job.id, renewed, () =>
      handler.run(JSON.parse(job.payload), attempt),
    );
    if (!failure) {
      if (
        !(await this.finish('job', job.id, claim, {
          doneAt: new Date(clock.now()),
          lastError: null,
        }))
      )
        return;
      metrics.jobFinished(job.kind, 'done');
    } else {
      const { error } = failure;
      const message = error instanceof Error ? error.message : String(error);
      const attempts = job.attempts + 1;
      const now = clock.now();
      const waitMs = this.retryDelayMs(attempts, handler.firstRetryMs);
      const giveUp =
        error instanceof JobRefused ||
        now - attempt.createdAt.getTime() + waitMs > (handler.giveUpAfterMs ?? GIVE_UP_AFTER_MS);
      const recorded = await this.finish('job', job.id, claim, {
        attempts,
        lastError: message.slice(0, 2000),
        nextAttemptAt: new Date(now + waitMs),
        ...(giveUp && { failedAt: new Date(now) }),
      });
      if (!recorded) return;
      metrics.jobFinished(job.kind, giveUp ? 'given_up' : 'retry');
      log.warn(
        {
          component: 'outbox',
          jobId: job.id,
          kind: job.kind,
          attempts,
          gaveUp: giveUp,
          error: message,
        },
        giveUp
          ? 'A job could not be done; given up'
          : 'A job could not be done; it is tried again later',
      );
      if (giveUp && handler.gaveUp)
        await handler.gaveUp(JSON.parse(job.payload), { ...attempt, attempts }, message);
    }
  }

  private async deliver(message: OutboxMessage, batchClaim: Date): Promise<void> {
    const { mailer, clock } = this.deps;
    const renewed = await this.renewClaim('mail', message.id, batchClaim);
    if (renewed === null) return;
    const { claim, failure } = await this.whileClaimed('mail', message.id, renewed, () =>
      mailer.send({
        to: message.recipient,
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody,
        unsubscribeUrl: message.unsubscribeUrl,
      }),
    );
    const record = (outcome: Outcome) => this.finish('mail', message.id, claim, outcome);
    if (!failure) {
      if (!(await record({ sentAt: new Date(clock.now()), lastError: null, ...SPENT_MESSAGE })))
        return;
      this.deps.metrics.mailSent();
      this.deps.log.debug({ component: 'mail', messageId: message.id }, 'E-mail delivered');
    } else {
      const { error } = failure;
      this.deps.metrics.mailFailed();
      const attempts = message.attempts + 1;
      const now = clock.now();
      const giveUp =
        now - new Date(message.createdAt).getTime() + this.retryDelayMs(attempts) >
        GIVE_UP_AFTER_MS;
      const recorded = await record({
        attempts,
        lastError: error instanceof Error ? error.message : String(error),
        nextAttemptAt: new Date(now + this.retryDelayMs(attempts)),
        ...(giveUp && { failedAt: new Date(now), ...SPENT_MESSAGE }),
      });
      if (!recorded) return;
      // The recipient and the message stay out of the log: they may hold a reset link.
      this.deps.log.warn(
        {
          component: 'mail',
          messageId: message.id,
          attempts,
          gaveUp: giveUp,
          error: error instanceof Error ? error.message : String(error),
        },
        giveUp
          ? 'An e-mail could not be delivered; given up'
          : 'An e-mail could not be delivered; it is tried again later',
      );
    }
  }
}
