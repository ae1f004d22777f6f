/**
 * The outbox: e-mails are written here and sent by a worker, so delivery never blocks or fails the
 * work that produced them. A message is claimed with a lease before sending (several processes never
 * send one twice), retried with growing waits when the SMTP server refuses or is away, and given up
 * a day after it was written. Unsent messages survive restarts: they are rows.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { OutboxMessage } from '../db/models';
import type { Logger } from '../logger';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import type { OutboxMetrics } from '../metrics';

const POLL_INTERVAL_MS = 5_000;
const BATCH = 20;
/** A claimed message is another process's to retry only after this: longer than any send takes. */
const CLAIM_MS = 2 * 60_000;
const LONGEST_RETRY_MS = 60 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

export type OutboxEntry = OutgoingMail & { userId: number | null };

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
  outbox.kick();
}

/** The worker: sends what is due, once at a time in this process, every few seconds and at each enqueue. */
export class Outbox {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: OutboxDeps) {}

  /** MAIL_RETRY_SECONDS (30 s), then twice as long each time, up to an hour between attempts. */
  retryDelayMs(attempts: number): number {
    return Math.min(this.deps.config.mailRetrySeconds * 1000 * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
  }

  /** Sends what is due now; answers how many messages it tried. */
  async deliverDueMessages(): Promise<number> {
    const ids = await this.claimDueMessages(new Date(this.deps.clock.now()));
    if (ids.length === 0) return 0;
    const messages = await this.deps.db.models.OutboxMessage.findAll({ where: { id: { [Op.in]: ids } }, order: [['id', 'ASC']] });
    for (const message of messages) await this.deliver(message);
    return messages.length;
  }

  /** Runs the worker now (after an enqueue), once at a time; a kick during a run makes it go round again. */
  kick(): void {
    if (!this.deps.mailer.enabled || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        while (!this.stopped && (await this.deliverDueMessages()) === BATCH);
      } while (this.again && !this.stopped);
    })()
      .catch((error) => this.deps.log.error({ component: 'outbox', err: error }, 'Outbox failed'))
      .finally(() => {
        this.running = undefined;
      });
  }

  start(): void {
    if (!this.deps.mailer.enabled) return;
    this.kick();
    this.timer = setInterval(() => this.kick(), POLL_INTERVAL_MS).unref();
  }

  /** Shutdown: no more claims; the batch being sent is finished (its messages are marked sent or retried). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Takes the due messages for this process: a claim is one statement, so two processes never share one. */
  private async claimDueMessages(now: Date): Promise<number[]> {
    const claimable = `"sentAt" IS NULL AND "failedAt" IS NULL AND "nextAttemptAt" <= :now AND ("claimedUntil" IS NULL OR "claimedUntil" < :now)`;
    // WITH first: Sequelize reads no rows from a statement starting with UPDATE on SQLite.
    const rows = await this.deps.db.sequelize.query<{ id: number }>(
      `WITH "due" AS (SELECT "id" FROM "outbox" WHERE ${claimable} ORDER BY "id" LIMIT ${BATCH})
       UPDATE "outbox" SET "claimedUntil" = :until WHERE "id" IN (SELECT "id" FROM "due") AND ${claimable} RETURNING "id"`,
      { type: QueryTypes.SELECT, replacements: { now, until: new Date(now.getTime() + CLAIM_MS) } },
    );
    return rows.map((row) => Number(row.id));
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
