/**
 * The outbox: work for other systems is written here and done by a worker, so an outage of theirs
 * never blocks or fails the work that produced it. It has two lanes with one set of rules:
 * - e-mails (`outbox`), sent through the mailer;
 * - jobs (`outbox_jobs`), each done by the handler registered for its kind (forwarding to the
 *   provider, webhook deliveries).
 * An entry is claimed with a lease before it is tried (several processes never try one twice),
 * retried with growing waits while the other side refuses or is away, and given up a day after it was
 * written unless its kind says otherwise. Entries survive restarts: they are rows.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { OutboxJob, OutboxMessage } from '../db/models';
import type { Logger } from '../logger';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import type { OutboxMetrics } from '../metrics';

const POLL_INTERVAL_MS = 5_000;
const BATCH = 20;
/** A claimed message is another process's to retry only after this: longer than any send takes. */
const CLAIM_MS = 2 * 60_000;
const LONGEST_RETRY_MS = 60 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Jobs of a batch run this many at a time. */
const JOBS_AT_ONCE = 4;

export type OutboxEntry = OutgoingMail & { userId: number | null };

/** A job to write: its kind names the handler that will do it; the payload is stored as JSON. */
export interface JobEntry {
  kind: string;
  payload: unknown;
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

/** Thrown by a handler when retrying cannot help. */
export class JobRefused extends Error {}

export interface OutboxDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'mailRetrySeconds'>;
  mailer: Mailer;
  log: Logger;
  metrics: OutboxMetrics;
}

/** What waits to be sent: how many messages, how long the oldest has waited, and how many a delivery already failed. */
export async function readOutboxBacklog({
  db,
  clock,
}: {
  db: Database;
  clock: Clock;
}): Promise<{ pending: number; oldestAgeSeconds: number; retrying: number }> {
  const where = { sentAt: null, failedAt: null };
  const [pending, oldest, retrying] = await Promise.all([
    db.models.OutboxMessage.count({ where }),
    db.models.OutboxMessage.min<Date | string | null, OutboxMessage>('createdAt', { where }),
    db.models.OutboxMessage.count({ where: { ...where, attempts: { [Op.gt]: 0 } } }),
  ]);
  const oldestAgeSeconds = oldest ? Math.max(0, Math.round((clock.now() - new Date(oldest).getTime()) / 1000)) : 0;
  return { pending, oldestAgeSeconds, retrying };
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
    jobs.map((job) => ({ kind: job.kind, payload: JSON.stringify(job.payload), nextAttemptAt: now, createdAt: now })),
    { transaction },
  );
  kickWhenWritten(outbox, transaction);
}

/** Jobs done or given up on are kept for a while (to look into), then dropped. */
export async function purgeFinishedJobs({ db, clock }: { db: Database; clock: Clock }, olderThanMs: number): Promise<void> {
  const before = new Date(clock.now() - olderThanMs);
  await db.models.OutboxJob.destroy({ where: { [Op.or]: [{ doneAt: { [Op.lt]: before } }, { failedAt: { [Op.lt]: before } }] } });
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

/** The worker: does what is due in both lanes, once at a time in this process, every few seconds and at each enqueue. */
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
    const ids = await this.claimDue('outbox', 'sentAt', new Date(this.deps.clock.now()));
    if (ids.length === 0) return 0;
    const messages = await this.deps.db.models.OutboxMessage.findAll({ where: { id: { [Op.in]: ids } }, order: [['id', 'ASC']] });
    for (const message of messages) await this.deliver(message);
    return messages.length;
  }

  /** Does the jobs due now, a few at a time (one slow endpoint does not hold the others up); answers how many it tried. */
  async runDueJobs(): Promise<number> {
    const ids = await this.claimDue('outbox_jobs', 'doneAt', new Date(this.deps.clock.now()));
    if (ids.length === 0) return 0;
    const jobs = await this.deps.db.models.OutboxJob.findAll({ where: { id: { [Op.in]: ids } }, order: [['id', 'ASC']] });
    for (let start = 0; start < jobs.length; start += JOBS_AT_ONCE) {
      await Promise.all(jobs.slice(start, start + JOBS_AT_ONCE).map((job) => this.runJob(job)));
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

  /** Takes the due entries of one lane for this process: a claim is one statement, so two processes never share one. */
  private async claimDue(table: 'outbox' | 'outbox_jobs', doneColumn: 'sentAt' | 'doneAt', now: Date): Promise<number[]> {
    const claimable = `"${doneColumn}" IS NULL AND "failedAt" IS NULL AND "nextAttemptAt" <= :now AND ("claimedUntil" IS NULL OR "claimedUntil" < :now)`;
    // WITH first: Sequelize reads no rows from a statement starting with UPDATE on SQLite.
    const rows = await this.deps.db.sequelize.query<{ id: number }>(
      `WITH "due" AS (SELECT "id" FROM "${table}" WHERE ${claimable} ORDER BY "id" LIMIT ${BATCH})
       UPDATE "${table}" SET "claimedUntil" = :until WHERE "id" IN (SELECT "id" FROM "due") AND ${claimable} RETURNING "id"`,
      { type: QueryTypes.SELECT, replacements: { now, until: new Date(now.getTime() + CLAIM_MS) } },
    );
    return rows.map((row) => Number(row.id));
  }

  private async runJob(job: OutboxJob): Promise<void> {
    const { clock, log, metrics } = this.deps;
    const attempt: JobAttempt = { id: job.id, kind: job.kind, attempts: job.attempts, createdAt: new Date(job.createdAt) };
    const handler = this.handlers.get(job.kind);
    try {
      // A kind this version does not know (written by a newer one) waits for a process that does.
      if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`);
      await handler.run(JSON.parse(job.payload), attempt);
      await job.update({ doneAt: new Date(clock.now()), claimedUntil: null, lastError: null });
      metrics.jobFinished(job.kind, 'done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const attempts = job.attempts + 1;
      const now = clock.now();
      const waitMs = this.retryDelayMs(attempts, handler?.firstRetryMs);
      const giveUp = error instanceof JobRefused || now - attempt.createdAt.getTime() + waitMs > (handler?.giveUpAfterMs ?? GIVE_UP_AFTER_MS);
      await job.update({
        attempts,
        lastError: message.slice(0, 2000),
        claimedUntil: null,
        nextAttemptAt: new Date(now + waitMs),
        ...(giveUp && { failedAt: new Date(now) }),
      });
      metrics.jobFinished(job.kind, giveUp ? 'given_up' : 'retry');
      log.warn(
        { component: 'outbox', jobId: job.id, kind: job.kind, attempts, gaveUp: giveUp, error: message },
        giveUp ? 'A job could not be done; given up' : 'A job could not be done; it is tried again later',
      );
      if (giveUp && handler?.gaveUp) await handler.gaveUp(JSON.parse(job.payload), { ...attempt, attempts }, message);
    }
  }

  private async deliver(message: OutboxMessage): Promise<void> {
    const { mailer, clock } = this.deps;
    try {
      await mailer.send({
        to: message.recipient,
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody,
        unsubscribeUrl: message.unsubscribeUrl,
      });
      await message.update({ sentAt: new Date(clock.now()), claimedUntil: null, lastError: null });
      this.deps.metrics.mailSent();
      this.deps.log.debug({ component: 'mail', messageId: message.id }, 'E-mail delivered');
    } catch (error) {
      this.deps.metrics.mailFailed();
      const attempts = message.attempts + 1;
      const now = clock.now();
      const giveUp = now - new Date(message.createdAt).getTime() + this.retryDelayMs(attempts) > GIVE_UP_AFTER_MS;
      await message.update({
        attempts,
        lastError: error instanceof Error ? error.message : String(error),
        claimedUntil: null,
        nextAttemptAt: new Date(now + this.retryDelayMs(attempts)),
        ...(giveUp && { failedAt: new Date(now) }),
      });
      // The recipient and the message stay out of the log: they may hold a reset link.
      this.deps.log.warn(
        { component: 'mail', messageId: message.id, attempts, gaveUp: giveUp, error: error instanceof Error ? error.message : String(error) },
        giveUp ? 'An e-mail could not be delivered; given up' : 'An e-mail could not be delivered; it is tried again later',
      );
    }
  }
}
