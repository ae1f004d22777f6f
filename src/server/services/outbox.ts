/**
 * The outbox: e-mails are written here and sent by a worker, so delivery never blocks or fails the
 * work that produced them. A message is claimed with a lease before sending (several processes never
 * send one twice), retried with growing waits when the SMTP server refuses or is away, and given up
 * a day after it was written. Unsent messages survive restarts: they are rows.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { config } from '../config';
import { sequelize } from '../db';
import { OutboxMessage } from '../db/models';
import { mailEnabled, sendMail, type OutgoingMail } from '../mail/mailer';

const POLL_INTERVAL_MS = 5_000;
const BATCH = 20;
/** A claimed message is another process's to retry only after this: longer than any send takes. */
const CLAIM_MS = 2 * 60_000;
const LONGEST_RETRY_MS = 60 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

export type OutboxEntry = OutgoingMail & { userId: number | null };

export async function enqueueMessages(messages: OutboxEntry[], transaction?: Transaction): Promise<void> {
  if (messages.length === 0) return;
  const now = new Date();
  await OutboxMessage.bulkCreate(
    messages.map((message) => ({
      userId: message.userId,
      recipient: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html,
      unsubscribeUrl: message.unsubscribeUrl,
      nextAttemptAt: now,
    })),
    { transaction },
  );
  kickOutbox();
}

/** MAIL_RETRY_SECONDS (30 s), then twice as long each time, up to an hour between attempts. */
function retryDelayMs(attempts: number): number {
  return Math.min(config.mailRetrySeconds * 1000 * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/** Takes the due messages for this process: a claim is one statement, so two processes never share one. */
async function claimDueMessages(now: Date): Promise<number[]> {
  const claimable = `"sentAt" IS NULL AND "failedAt" IS NULL AND "nextAttemptAt" <= :now AND ("claimedUntil" IS NULL OR "claimedUntil" < :now)`;
  // WITH first: Sequelize reads no rows from a statement starting with UPDATE on SQLite.
  const rows = await sequelize.query<{ id: number }>(
    `WITH "due" AS (SELECT "id" FROM "outbox" WHERE ${claimable} ORDER BY "id" LIMIT ${BATCH})
     UPDATE "outbox" SET "claimedUntil" = :until WHERE "id" IN (SELECT "id" FROM "due") AND ${claimable} RETURNING "id"`,
    { type: QueryTypes.SELECT, replacements: { now, until: new Date(now.getTime() + CLAIM_MS) } },
  );
  return rows.map((row) => Number(row.id));
}

async function deliver(message: OutboxMessage): Promise<void> {
  try {
    await sendMail({
      to: message.recipient,
      subject: message.subject,
      text: message.textBody,
      html: message.htmlBody,
      unsubscribeUrl: message.unsubscribeUrl,
    });
    await message.update({ sentAt: new Date(), claimedUntil: null, lastError: null });
  } catch (error) {
    const attempts = message.attempts + 1;
    const now = Date.now();
    const giveUp = now - new Date(message.createdAt).getTime() + retryDelayMs(attempts) > GIVE_UP_AFTER_MS;
    await message.update({
      attempts,
      lastError: error instanceof Error ? error.message : String(error),
      claimedUntil: null,
      nextAttemptAt: new Date(now + retryDelayMs(attempts)),
      ...(giveUp && { failedAt: new Date(now) }),
    });
  }
}

/** Sends what is due now; answers how many messages it tried. */
export async function deliverDueMessages(): Promise<number> {
  const ids = await claimDueMessages(new Date());
  if (ids.length === 0) return 0;
  const messages = await OutboxMessage.findAll({ where: { id: { [Op.in]: ids } }, order: [['id', 'ASC']] });
  for (const message of messages) await deliver(message);
  return messages.length;
}

let running: Promise<void> | undefined;
let again = false;
let timer: NodeJS.Timeout | undefined;
let stopped = false;

/** Runs the worker now (after an enqueue), once at a time; a kick during a run makes it go round again. */
function kickOutbox(): void {
  if (!mailEnabled || stopped) return;
  if (running) {
    again = true;
    return;
  }
  running = (async () => {
    do {
      again = false;
      while (!stopped && (await deliverDueMessages()) === BATCH);
    } while (again && !stopped);
  })()
    .catch((error) => console.error('Outbox failed:', error))
    .finally(() => {
      running = undefined;
    });
}

export function startOutbox(): void {
  if (!mailEnabled) return;
  kickOutbox();
  timer = setInterval(kickOutbox, POLL_INTERVAL_MS).unref();
}

/** Shutdown: no more claims; the batch being sent is finished (its messages are marked sent or retried). */
export async function stopOutbox(): Promise<void> {
  stopped = true;
  clearInterval(timer);
  await running;
}
