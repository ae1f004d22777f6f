/**
 * Pre-alerts: a customer announces a package on its way to the warehouse for one of their consignees,
 * with its purchase invoice if they like. Each is linked to the receipt its package arrives on: by the
 * sync, as it writes the receipt (matchArrivedPackages), when it is made after the package came, or by
 * an admin; every link goes through linkPrealertToReceipt. New, changed and withdrawn pre-alerts are
 * told to the provider through the outbox when it offers them (forwardPrealert), so an outage of its
 * loses nothing. A customer sees, makes, changes and downloads only for their own consignees.
 */
import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import {
  centsToDollars,
  PREALERT_WRITES_PER_WINDOW,
  PREALERTS_WAITING_PER_USER,
  UNMATCHED_RECEIPTS_DAYS,
  type AdminPrealert,
  type AdminPrealertList,
  type AdminPrealertQuery,
  type Carrier,
  type Prealert,
  type PrealertInput,
  type PrealertList,
  type PrealertListQuery,
  type ReceiptWithPrealerts,
  type UnmatchedReceipt,
} from '~/shared/prealerts';
import { paginationOf } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { PrealertMatchedBy } from '../../db/models';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail/mailer';
import { ProviderRefusal, type ProviderClient, type ProviderPrealert } from '../../provider/contract';
import { recordAudit, selfActor, type AuditActor } from '../audit';
import type { LoginLimiter } from '../login-limiter';
import { enqueueJobs, JobRefused, type JobHandler, type Outbox } from '../outbox';
import { getReceipt, visibleConsigneeIds, type ScopeDeps } from '../receipts';
import { announceStatusChanges, type StatusEmailDeps } from '../status-emails';
import type { ArrivalLine, PageReaction, WrittenReceipt } from '../sync-reactions';
import { invoiceInfoOf, readReceiptPrealerts } from '../receipt-prealerts';
import { queueWebhookEvent, type WebhookEventDeps } from '../webhook-delivery';
import type { LastSyncTime } from '../sync-state';
import { DAY_MS } from '~/shared/constants';

/** The outbox's kind for telling the provider of a pre-alert. */
export const PREALERT_FORWARD_JOB = 'provider.prealert';
/**
 * Telling the provider is retried for a week. A pre-alert is worth telling until its package comes,
 * usually within days: an outage over a long weekend, or a connection that waits for an admin to renew
 * it, must not lose one. Past a week the package has mostly come, and the admin's stale list shows
 * what is still expected.
 */
const FORWARD_GIVE_UP_MS = 7 * DAY_MS;
const FORWARD_FIRST_RETRY_MS = 60_000;
/** An invoice file no pre-alert names is removed once this old: younger, its upload may be on its way to its row. */
const ORPHAN_INVOICE_AGE_MS = 60 * 60_000;
/** Invoice files looked up in one query by housekeeping. */
const INVOICE_LOOKUP_CHUNK = 500;

export interface PrealertDeps extends ScopeDeps {
  clock: Clock;
  outbox: Outbox;
  loginLimiter: Pick<LoginLimiter, 'admitRequest'>;
  config: Pick<Config, 'uploadsDir' | 'prealertStaleDays'>;
  lastSync: LastSyncTime;
}

/** The folder of the invoices, inside UPLOADS_DIR. */
export const invoiceFolder = (config: Pick<Config, 'uploadsDir'>) => path.join(config.uploadsDir, 'prealerts');

/** An invoice already stored in the invoice folder under a name the server chose. */
export interface NewInvoice {
  fileName: string;
  originalName: string;
  contentType: string;
  size: number;
}

interface PrealertRow {
  id: number;
  userId: number | null;
  consigneeId: number;
  carrier: Carrier;
  trackingNumber: string;
  shipper: string;
  description: string;
  declaredValueCents: number;
  invoiceFileName: string | null;
  invoiceOriginalName: string | null;
  invoiceContentType: string | null;
  invoiceSize: number | null;
  receiptId: number | null;
  matchedAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  consigneeName: string | null;
  receiptNumber: string | null;
  createdBy: string | null;
}

/**
 * A pre-alert with its consignee's name, its receipt's number and its maker's name. The receipt counts
 * only while it is the consignee's: a link that a sync made wrong (the receipt moved) never shows.
 */
const SELECT_PREALERTS = `
  SELECT p."id", p."userId", p."consigneeId", p."carrier", p."trackingNumber", p."shipper", p."description", p."declaredValueCents",
         p."invoiceFileName", p."invoiceOriginalName", p."invoiceContentType", p."invoiceSize", p."receiptId", p."matchedAt",
         p."createdAt", p."updatedAt", c."name" AS "consigneeName", r."number" AS "receiptNumber", u."username" AS "createdBy"
    FROM "prealerts" p
    LEFT JOIN "consignees" c ON c."id" = p."consigneeId"
    LEFT JOIN "receipts" r ON r."id" = p."receiptId" AND r."consigneeId" = p."consigneeId"
    LEFT JOIN "users" u ON u."id" = p."userId"`;

const isoTime = (value: Date | string) => new Date(value).toISOString();

function toPrealert(row: PrealertRow): Prealert {
  const invoice = invoiceInfoOf(row);
  const receiptId = row.receiptId === null ? null : Number(row.receiptId);
  return {
    id: Number(row.id),
    status: receiptId === null ? 'expected' : 'received',
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    shipper: row.shipper,
    description: row.description,
    declaredValue: centsToDollars(Number(row.declaredValueCents)),
    consigneeId: Number(row.consigneeId),
    consigneeName: row.consigneeName ?? '',
    receiptId,
    receiptNumber: row.receiptNumber,
    hasInvoice: invoice !== null,
    invoice,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    matchedAt: row.matchedAt === null ? null : isoTime(row.matchedAt),
  };
}

const toAdminPrealert = (row: PrealertRow): AdminPrealert => ({ ...toPrealert(row), createdBy: row.createdBy });

/** The condition of a user's scope on `p`: their consignees' pre-alerts (staff: all). */
function scopeCondition(consigneeIds: number[] | null): string {
  if (consigneeIds === null) return '1 = 1';
  return consigneeIds.length === 0 ? '1 = 0' : 'p."consigneeId" IN (:consigneeIds)';
}

async function readPrealertRows(
  db: Database,
  where: string,
  replacements: Record<string, unknown>,
  options: { order?: string; limit?: number; offset?: number; transaction?: Transaction } = {},
): Promise<PrealertRow[]> {
  const page = options.limit === undefined ? '' : ` LIMIT ${options.limit} OFFSET ${options.offset ?? 0}`;
  return db.sequelize.query<PrealertRow>(`${SELECT_PREALERTS} WHERE ${where} ORDER BY ${options.order ?? 'p."createdAt" DESC, p."id" DESC'}${page}`, {
    type: QueryTypes.SELECT,
    replacements,
    transaction: options.transaction,
  });
}

async function countPrealerts(db: Database, where: string, replacements: Record<string, unknown>): Promise<number> {
  const [row] = await db.sequelize.query<{ count: number | string }>(`SELECT COUNT(*) AS "count" FROM "prealerts" p WHERE ${where}`, {
    type: QueryTypes.SELECT,
    replacements,
  });
  return Number(row?.count ?? 0);
}

const notFound = () => new AppError('NOT_FOUND', m.prealert_not_found());

/** One pre-alert in the user's scope; another consignee's is the same 404 as one that does not exist. */
async function prealertInScope(deps: ScopeDeps, user: PublicUser, id: number, transaction?: Transaction): Promise<PrealertRow> {
  const consigneeIds = await visibleConsigneeIds(deps, user, transaction);
  const [row] = await readPrealertRows(deps.db, `p."id" = :id AND ${scopeCondition(consigneeIds)}`, { id, consigneeIds }, { transaction });
  if (!row) throw notFound();
  return row;
}

/**
 * Locks the pre-alert's row until the transaction ends (PostgreSQL; SQLite's immediate transactions
 * already take turns), before it is read for a change: two changes at once, each replacing the invoice
 * file it read, would otherwise both remove the same old file and leave one new file to nobody.
 */
async function lockPrealert(db: Database, id: number, transaction: Transaction): Promise<void> {
  await db.models.Prealert.findByPk(id, { attributes: ['id'], lock: transaction.LOCK.UPDATE, transaction });
}

/** A page of the user's pre-alerts (their consignees'), newest first. */
export async function listPrealerts(deps: ScopeDeps, user: PublicUser, query: PrealertListQuery): Promise<PrealertList> {
  const consigneeIds = await visibleConsigneeIds(deps, user);
  const status = query.status === undefined ? '' : query.status === 'received' ? ' AND p."receiptId" IS NOT NULL' : ' AND p."receiptId" IS NULL';
  const where = `${scopeCondition(consigneeIds)}${status}`;
  const replacements = { consigneeIds };
  const [rows, total] = await Promise.all([
    readPrealertRows(deps.db, where, replacements, { limit: query.limit, offset: (query.page - 1) * query.limit }),
    countPrealerts(deps.db, where, replacements),
  ]);
  return { data: rows.map(toPrealert), pagination: paginationOf(query.page, query.limit, total) };
}

export async function getPrealert(deps: ScopeDeps, user: PublicUser, id: number): Promise<Prealert> {
  return toPrealert(await prealertInScope(deps, user, id));
}

/** The consignee must be one the user sees (for a customer: one of their own); any other is refused alike. */
async function requireOwnConsignee(deps: ScopeDeps, user: PublicUser, consigneeId: number, transaction: Transaction): Promise<void> {
  const consigneeIds = await visibleConsigneeIds(deps, user, transaction);
  const known = await deps.db.models.Consignee.findByPk(consigneeId, { attributes: ['id'], transaction });
  if (!known || (consigneeIds !== null && !consigneeIds.includes(consigneeId))) {
    const message = m.prealert_consignee_not_yours();
    throw new AppError('VALIDATION_ERROR', message, { details: [{ field: 'consigneeId', message }] });
  }
}

/** The same package announced twice for one consignee is one pre-alert. */
function duplicateTracking(error: unknown, trackingNumber: string): unknown {
  if (!(error instanceof UniqueConstraintError)) return error;
  const message = m.prealert_tracking_duplicate({ trackingNumber });
  return new AppError('CONFLICT', message, { details: [{ field: 'trackingNumber', message }] });
}

/**
 * The outbox job that tells the provider a pre-alert's state as it is when the job runs. A pre-alert's
 * jobs run one at a time, in the order written: an edit's save still under way when a withdrawal's job
 * runs could otherwise reach the provider after the withdrawal. Every transaction that writes one has
 * written (so locked) the pre-alert's row first, so the jobs' order is their transactions' order.
 */
const forwardJob = (prealertId: number) => ({ kind: PREALERT_FORWARD_JOB, payload: { prealertId }, orderingKey: `prealert:${prealertId}` });

/**
 * Links a pre-alert to the receipt its package came on, once: only while the pre-alert waits, and only
 * when the receipt is its consignee's. A tracking number is typed by a customer and may be mistyped or
 * guessed, so it never proves whose package it is: a link across consignees would show one customer's
 * pre-alert, value and invoice on another's receipt, and tell the first about a receipt they may not
 * see. A package whose number matches another consignee's pre-alert stays unlinked, for the admin's
 * view (the receipt without a pre-alert, the pre-alert gone stale). Answers whether it linked them.
 */
export async function linkPrealertToReceipt(
  deps: WebhookEventDeps,
  link: { prealertId: number; receiptId: number; matchedBy: PrealertMatchedBy },
  transaction: Transaction,
  /** False for a pre-alert made this moment: the provider never heard of it. */
  providerKnowsIt = true,
): Promise<boolean> {
  const { db, clock } = deps;
  const linked = await db.sequelize.query(
    `UPDATE "prealerts" SET "receiptId" = :receiptId, "matchedAt" = :now, "matchedBy" = :matchedBy
      WHERE "id" = :prealertId AND "receiptId" IS NULL
        AND "consigneeId" = (SELECT r."consigneeId" FROM "receipts" r WHERE r."id" = :receiptId)
        AND (:matchedBy = 'admin' OR "declinedReceiptId" IS NULL OR "declinedReceiptId" <> :receiptId)
      RETURNING "id"`,
    { replacements: { ...link, now: new Date(clock.now()) }, type: QueryTypes.SELECT, transaction },
  );
  if (linked.length !== 1) return false;
  // Every link, the sync's and the admin's, is told to the provider (nothing waits for that package any
  // more) and announced to the webhooks that take pre-alert events.
  if (providerKnowsIt) await enqueueJobs(deps, [forwardJob(link.prealertId)], transaction);
  const [row] = await db.sequelize.query<PrealertRow>(`${SELECT_PREALERTS} WHERE p."id" = :id`, {
    replacements: { id: link.prealertId },
    type: QueryTypes.SELECT,
    transaction,
  });
  await queueWebhookEvent(deps, { type: 'prealert.matched', receiptId: link.receiptId, prealert: toPrealert(row!) }, transaction);
  return true;
}

/**
 * Unlinks the pre-alerts of these receipts that are no longer their consignees' (the provider gave the
 * receipt to another consignee, or deleted it): they wait for their package again.
 */
export async function releasePrealertsOfReceipts(deps: WebhookEventDeps, receiptIds: number[], transaction: Transaction): Promise<void> {
  if (receiptIds.length === 0) return;
  const released = await deps.db.sequelize.query<{ id: number }>(
    `UPDATE "prealerts" SET "receiptId" = NULL, "matchedAt" = NULL, "matchedBy" = NULL
      WHERE "receiptId" IN (:receiptIds)
        AND NOT EXISTS (SELECT 1 FROM "receipts" r WHERE r."id" = "prealerts"."receiptId" AND r."consigneeId" = "prealerts"."consigneeId")
      RETURNING "id"`,
    { replacements: { receiptIds }, type: QueryTypes.SELECT, transaction },
  );
  // Waiting again: the provider is told to expect them.
  await enqueueJobs(
    deps,
    released.map((row) => forwardJob(Number(row.id))),
    transaction,
  );
}

/**
 * Links the waiting pre-alerts whose packages came on these receipts (the sync's page, in its
 * transaction): the same tracking number, the same consignee. Answers what arrived, for the digest.
 */
export async function matchArrivedPackages(deps: WebhookEventDeps, receipts: WrittenReceipt[], transaction: Transaction): Promise<ArrivalLine[]> {
  await releasePrealertsOfReceipts(
    deps,
    receipts.map((receipt) => receipt.id),
    transaction,
  );
  const receiptsByKey = new Map<string, WrittenReceipt[]>();
  for (const receipt of receipts) {
    for (const key of new Set(receipt.trackingKeys)) {
      if (key === null || receipt.consigneeId === null) continue;
      receiptsByKey.set(key, [...(receiptsByKey.get(key) ?? []), receipt]);
    }
  }
  if (receiptsByKey.size === 0) return [];
  const waiting = await deps.db.models.Prealert.findAll({
    attributes: ['id', 'consigneeId', 'trackingNumber', 'shipper', 'declinedReceiptId'],
    where: { trackingNumber: [...receiptsByKey.keys()], receiptId: null },
    order: [['id', 'ASC']],
    raw: true,
    transaction,
  });
  const arrivals: ArrivalLine[] = [];
  for (const prealert of waiting) {
    const receipt = receiptsByKey
      .get(prealert.trackingNumber)
      ?.find((candidate) => candidate.consigneeId === prealert.consigneeId && candidate.id !== prealert.declinedReceiptId);
    if (!receipt) continue;
    if (await linkPrealertToReceipt(deps, { prealertId: prealert.id, receiptId: receipt.id, matchedBy: 'arrival' }, transaction)) {
      arrivals.push({
        receiptId: receipt.id,
        number: receipt.number,
        consigneeId: prealert.consigneeId,
        trackingNumber: prealert.trackingNumber,
        shipper: prealert.shipper,
      });
    }
  }
  return arrivals;
}

/**
 * The sync's reaction to a page: the pre-alerts of the receipts it removed wait for their packages
 * again, and the waiting ones whose packages came on the receipts it wrote are linked. Its news: what arrived.
 */
export function prealertMatchingReaction(deps: WebhookEventDeps): PageReaction {
  return async (page, _news, transaction) => {
    await releasePrealertsOfReceipts(deps, page.removed, transaction);
    return { arrivals: await matchArrivedPackages(deps, page.written, transaction) };
  };
}

/** A receipt of the pre-alert's consignee that already holds its package, if one came before it was made. */
async function receiptHoldingPackage(
  db: Database,
  prealert: { consigneeId: number; trackingNumber: string },
  transaction: Transaction,
): Promise<number | null> {
  const [row] = await db.sequelize.query<{ id: number }>(
    `SELECT r."id" FROM "receipts" r JOIN "packages" k ON k."receiptId" = r."id"
      WHERE k."trackingKey" = :trackingNumber AND r."consigneeId" = :consigneeId
      ORDER BY r."id" LIMIT 1`,
    { type: QueryTypes.SELECT, replacements: prealert, transaction },
  );
  return row ? Number(row.id) : null;
}

/** The fields a pre-alert stores from what the customer sent. */
const storedFields = (input: PrealertInput) => ({
  consigneeId: input.consigneeId,
  carrier: input.carrier,
  trackingNumber: input.trackingNumber,
  shipper: input.shipper,
  description: input.description,
  declaredValueCents: input.declaredValue,
});

const invoiceFields = (invoice: NewInvoice | null) => ({
  invoiceFileName: invoice?.fileName ?? null,
  invoiceOriginalName: invoice?.originalName ?? null,
  invoiceContentType: invoice?.contentType ?? null,
  invoiceSize: invoice?.size ?? null,
});

/**
 * A new pre-alert for one of the customer's consignees, with the invoice already stored (null without
 * one). A package that already came is linked at once; any other is told to the provider.
 */
/** Counts one write of the customer's against PREALERT_WRITES_PER_WINDOW: each may store an invoice and tells the provider. */
async function admitPrealertWrite(deps: PrealertDeps, user: PublicUser): Promise<void> {
  if (!(await deps.loginLimiter.admitRequest(`pre-alert writes of user ${user.id}`, PREALERT_WRITES_PER_WINDOW))) {
    throw new AppError('RATE_LIMITED', m.limits_prealert_writes());
  }
}

export async function createPrealert(
  deps: PrealertDeps,
  user: PublicUser,
  input: PrealertInput,
  invoice: NewInvoice | null,
  clientAddress: string | null,
): Promise<Prealert> {
  const { db, clock } = deps;
  await admitPrealertWrite(deps, user);
  const id = await db.sequelize
    .transaction(async (transaction) => {
      // The customer's row stays locked until the end (PostgreSQL; SQLite's immediate transactions already
      // take turns), so two creations at once cannot both slip under the limit.
      await db.models.User.findByPk(user.id, { attributes: ['id'], lock: transaction.LOCK.UPDATE, transaction });
      const waiting = await db.models.Prealert.count({ where: { userId: user.id, receiptId: null }, transaction });
      if (waiting >= PREALERTS_WAITING_PER_USER) throw new AppError('CONFLICT', m.limits_prealerts_waiting({ max: PREALERTS_WAITING_PER_USER }));
      await requireOwnConsignee(deps, user, input.consigneeId, transaction);
      const now = new Date(clock.now());
      const created = await db.models.Prealert.create(
        { userId: user.id, ...storedFields(input), ...invoiceFields(invoice), createdAt: now, updatedAt: now },
        { transaction },
      );
      const arrivedOn = await receiptHoldingPackage(db, input, transaction);
      const linked =
        arrivedOn !== null && (await linkPrealertToReceipt(deps, { prealertId: created.id, receiptId: arrivedOn, matchedBy: 'arrival' }, transaction, false));
      // A package that is here already needs no announcing.
      if (!linked) await enqueueJobs(deps, [forwardJob(created.id)], transaction);
      await recordAudit(
        deps,
        selfActor(user, clientAddress),
        { action: 'prealert.created', target: `pre-alert ${created.id} (${created.trackingNumber})` },
        transaction,
      );
      return created.id;
    })
    .catch((error: unknown) => {
      throw duplicateTracking(error, input.trackingNumber);
    });
  return getPrealert(deps, user, id);
}

/** Only a pre-alert still waiting for its package may change or go. */
function requireExpected(row: PrealertRow): void {
  if (row.receiptId !== null) throw new AppError('CONFLICT', m.prealert_already_received());
}

async function removeInvoiceFile(deps: Pick<PrealertDeps, 'config'>, fileName: string | null): Promise<void> {
  if (fileName === null) return;
  await rm(path.join(invoiceFolder(deps.config), fileName), { force: true });
}

/**
 * Changes a waiting pre-alert: every field as sent; a new invoice replaces the one on file, and
 * `removeInvoice` drops it. The provider is told of the change (it may have had the earlier one).
 */
export async function updatePrealert(
  deps: PrealertDeps,
  user: PublicUser,
  id: number,
  input: PrealertInput,
  invoice: NewInvoice | null,
  clientAddress: string | null,
): Promise<Prealert> {
  const { db, clock } = deps;
  await admitPrealertWrite(deps, user);
  const replaced = await db.sequelize
    .transaction(async (transaction) => {
      await lockPrealert(db, id, transaction);
      const row = await prealertInScope(deps, user, id, transaction);
      requireExpected(row);
      await requireOwnConsignee(deps, user, input.consigneeId, transaction);
      const keepsInvoice = invoice === null && !input.removeInvoice;
      const [updated] = await db.models.Prealert.update(
        { ...storedFields(input), ...(keepsInvoice ? {} : invoiceFields(invoice)), updatedAt: new Date(clock.now()) },
        { where: { id, receiptId: null }, transaction },
      );
      // Linked by a sync between the read and now.
      if (updated !== 1) throw new AppError('CONFLICT', m.prealert_already_received());
      const arrivedOn = await receiptHoldingPackage(db, input, transaction);
      const linked = arrivedOn !== null && (await linkPrealertToReceipt(deps, { prealertId: id, receiptId: arrivedOn, matchedBy: 'arrival' }, transaction));
      // A link tells the provider itself.
      if (!linked) await enqueueJobs(deps, [forwardJob(id)], transaction);
      await recordAudit(deps, selfActor(user, clientAddress), { action: 'prealert.updated', target: auditTarget(row) }, transaction);
      return keepsInvoice ? null : row.invoiceFileName;
    })
    .catch((error: unknown) => {
      throw duplicateTracking(error, input.trackingNumber);
    });
  // Once the change is stored, the file it replaced is nobody's.
  await removeInvoiceFile(deps, replaced);
  return getPrealert(deps, user, id);
}

/** Withdraws a waiting pre-alert, its invoice with it; the provider is told. */
export async function deletePrealert(deps: PrealertDeps, user: PublicUser, id: number, clientAddress: string | null): Promise<void> {
  const { db } = deps;
  const invoiceFileName = await db.sequelize.transaction(async (transaction) => {
    await lockPrealert(db, id, transaction);
    const row = await prealertInScope(deps, user, id, transaction);
    requireExpected(row);
    const removed = await db.models.Prealert.destroy({ where: { id, receiptId: null }, transaction });
    // Linked by a sync between the read and now.
    if (removed !== 1) throw new AppError('CONFLICT', m.prealert_already_received());
    await enqueueJobs(deps, [forwardJob(id)], transaction);
    await recordAudit(deps, selfActor(user, clientAddress), { action: 'prealert.deleted', target: auditTarget(row) }, transaction);
    return row.invoiceFileName;
  });
  await removeInvoiceFile(deps, invoiceFileName);
}

/**
 * Removes the files of the invoice folder that no pre-alert names and that are over an hour old: an
 * upload whose request ended before its pre-alert was stored, a file a crash left between a change and
 * the removal of the file it replaced. Housekeeping.
 */
export async function purgeOrphanInvoices({ db, clock, config }: { db: Database; clock: Clock; config: Pick<Config, 'uploadsDir'> }): Promise<void> {
  const folder = invoiceFolder(config);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const before = clock.now() - ORPHAN_INVOICE_AGE_MS;
  const old: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(folder, name)).catch(() => null);
    if (info?.isFile() && info.mtimeMs < before) old.push(name);
  }
  for (let start = 0; start < old.length; start += INVOICE_LOOKUP_CHUNK) {
    const chunk = old.slice(start, start + INVOICE_LOOKUP_CHUNK);
    const named = await db.models.Prealert.findAll({ attributes: ['invoiceFileName'], where: { invoiceFileName: chunk }, raw: true });
    const kept = new Set(named.map((row) => row.invoiceFileName));
    await Promise.all(chunk.filter((name) => !kept.has(name)).map((name) => rm(path.join(folder, name), { force: true })));
  }
}

export interface InvoiceFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
  /**
   * The name to save it under, made of the portal's own data: `invoice-<pre-alert id>` with the extension
   * of the type its bytes were found to be. The name it was uploaded with is the customer's to choose
   * (`invoice.hta`), so it is only ever shown as text.
   */
  name: string;
}

/** The invoice of a pre-alert the user sees; 404 when there is none. */
export async function readInvoice(deps: PrealertDeps, user: PublicUser, id: number): Promise<InvoiceFile> {
  const row = await prealertInScope(deps, user, id);
  if (row.invoiceFileName === null) throw new AppError('NOT_FOUND', m.prealert_no_invoice());
  let handle: FileHandle;
  try {
    handle = await open(path.join(invoiceFolder(deps.config), row.invoiceFileName));
  } catch {
    throw new AppError('NOT_FOUND', m.prealert_no_invoice());
  }
  let size: number;
  try {
    ({ size } = await handle.stat());
  } catch (error) {
    await handle.close();
    throw error;
  }
  return {
    body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>,
    contentType: row.invoiceContentType ?? 'application/octet-stream',
    size,
    // Stored under a name the server chose, with the extension of the type its bytes were checked as.
    name: `invoice-${row.id}${path.extname(row.invoiceFileName)}`,
  };
}

/** A receipt the user sees, with the pre-alerts of its consignee linked to it. */
export async function getReceiptWithPrealerts(deps: ScopeDeps & { lastSync: LastSyncTime }, user: PublicUser, id: number): Promise<ReceiptWithPrealerts> {
  const receipt = await getReceipt(deps, user, id);
  const prealerts = await readReceiptPrealerts(deps, [id]);
  return { ...receipt, prealerts: prealerts.get(id) ?? [] };
}

/** One page of the admin's view: stale pre-alerts (oldest first), recent matches, or recent receipts without a pre-alert. */
export async function listAdminPrealerts(deps: Pick<PrealertDeps, 'db' | 'clock' | 'config'>, query: AdminPrealertQuery): Promise<AdminPrealertList> {
  const { db, clock, config } = deps;
  const offset = (query.page - 1) * query.limit;
  if (query.state === 'unmatched-receipts') {
    const since = new Date(clock.now() - UNMATCHED_RECEIPTS_DAYS * DAY_MS);
    const { data, total } = await readUnmatchedReceipts(db, { since, limit: query.limit, offset });
    return { state: query.state, data, pagination: paginationOf(query.page, query.limit, total) };
  }
  const where = query.state === 'stale' ? 'p."receiptId" IS NULL AND p."createdAt" < :staleBefore' : 'p."receiptId" IS NOT NULL';
  const replacements = { staleBefore: new Date(clock.now() - config.prealertStaleDays * DAY_MS) };
  const order = query.state === 'stale' ? 'p."createdAt" ASC, p."id" ASC' : 'p."matchedAt" DESC, p."id" DESC';
  const [rows, total] = await Promise.all([
    readPrealertRows(db, where, replacements, { order, limit: query.limit, offset }),
    countPrealerts(db, where, replacements),
  ]);
  return { state: query.state, data: rows.map(toAdminPrealert), pagination: paginationOf(query.page, query.limit, total) };
}

/** Receipts received since `since` that no pre-alert is linked to, newest first, with their packages' tracking numbers. */
async function readUnmatchedReceipts(db: Database, page: { since: Date; limit: number; offset: number }): Promise<{ data: UnmatchedReceipt[]; total: number }> {
  const unmatched = `r."receivedDate" >= :since AND NOT EXISTS (SELECT 1 FROM "prealerts" p WHERE p."receiptId" = r."id")`;
  const [rows, [count]] = await Promise.all([
    db.sequelize.query<UnmatchedReceiptRow>(
      `SELECT ${UNMATCHED_RECEIPT_COLUMNS} FROM "receipts" r
        WHERE ${unmatched} ORDER BY r."receivedDate" DESC, r."id" DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      { type: QueryTypes.SELECT, replacements: page },
    ),
    db.sequelize.query<{ count: number | string }>(`SELECT COUNT(*) AS "count" FROM "receipts" r WHERE ${unmatched}`, {
      type: QueryTypes.SELECT,
      replacements: page,
    }),
  ]);
  return { data: await withTrackingNumbers(db, rows), total: Number(count?.count ?? 0) };
}

/** A receipt as the admin's views read it, before its packages' tracking numbers. */
interface UnmatchedReceiptRow {
  id: number;
  number: string;
  receivedDate: Date | string | null;
  consigneeId: number | null;
  consigneeName: string;
  shipperName: string;
}

/** The columns of an UnmatchedReceiptRow, of receipts as `r`. */
const UNMATCHED_RECEIPT_COLUMNS = 'r."id", r."number", r."receivedDate", r."consigneeId", r."consigneeName", r."shipperName"';

async function withTrackingNumbers(db: Database, rows: UnmatchedReceiptRow[]): Promise<UnmatchedReceipt[]> {
  const ids = rows.map((row) => Number(row.id));
  const packages =
    ids.length === 0
      ? []
      : await db.sequelize.query<{ receiptId: number; trackingNumber: string }>(
          `SELECT "receiptId", "trackingNumber" FROM "packages" WHERE "receiptId" IN (:ids) AND "trackingNumber" IS NOT NULL ORDER BY "receiptId", "position"`,
          { type: QueryTypes.SELECT, replacements: { ids } },
        );
  return rows.map((row) => ({
    id: Number(row.id),
    number: row.number,
    receivedDate: row.receivedDate === null ? null : isoTime(row.receivedDate),
    consigneeId: row.consigneeId === null ? null : Number(row.consigneeId),
    consigneeName: row.consigneeName,
    shipperName: row.shipperName,
    trackingNumbers: packages.filter((item) => Number(item.receiptId) === Number(row.id)).map((item) => item.trackingNumber),
  }));
}

/** What the admin's match forms offer per consignee at most: a choice, not a list to scroll. */
const MATCH_CHOICES_PER_CONSIGNEE = 25;

/** The waiting pre-alerts of these consignees, oldest first (a few per consignee): what the admin may link their receipts to. */
export async function listExpectedPrealerts({ db }: { db: Database }, consigneeIds: number[]): Promise<AdminPrealert[]> {
  if (consigneeIds.length === 0) return [];
  const rows = await readPrealertRows(
    db,
    `p."id" IN (SELECT "id" FROM (
        SELECT q."id", ROW_NUMBER() OVER (PARTITION BY q."consigneeId" ORDER BY q."createdAt", q."id") AS "rank"
          FROM "prealerts" q WHERE q."receiptId" IS NULL AND q."consigneeId" IN (:consigneeIds)) "ranked"
      WHERE "rank" <= :perConsignee)`,
    { consigneeIds, perConsignee: MATCH_CHOICES_PER_CONSIGNEE },
    { order: 'p."createdAt" ASC, p."id" ASC' },
  );
  return rows.map(toAdminPrealert);
}

/** Recent receipts of these consignees without a pre-alert, newest first (a few per consignee): what the admin may link a stale pre-alert to. */
export async function listUnmatchedReceiptsOf({ db, clock }: { db: Database; clock: Clock }, consigneeIds: number[]): Promise<UnmatchedReceipt[]> {
  if (consigneeIds.length === 0) return [];
  const since = new Date(clock.now() - UNMATCHED_RECEIPTS_DAYS * DAY_MS);
  const rows = await db.sequelize.query<UnmatchedReceiptRow>(
    `SELECT "id", "number", "receivedDate", "consigneeId", "consigneeName", "shipperName" FROM (
        SELECT ${UNMATCHED_RECEIPT_COLUMNS},
               ROW_NUMBER() OVER (PARTITION BY r."consigneeId" ORDER BY r."receivedDate" DESC, r."id" DESC) AS "rank"
          FROM "receipts" r
         WHERE r."consigneeId" IN (:consigneeIds) AND r."receivedDate" >= :since
           AND NOT EXISTS (SELECT 1 FROM "prealerts" p WHERE p."receiptId" = r."id")) "ranked"
      WHERE "rank" <= :perConsignee
      ORDER BY "receivedDate" DESC, "id" DESC`,
    { type: QueryTypes.SELECT, replacements: { consigneeIds, since, perConsignee: MATCH_CHOICES_PER_CONSIGNEE } },
  );
  return withTrackingNumbers(db, rows);
}

export interface PrealertAdminDeps extends StatusEmailDeps {
  mailer: Pick<Mailer, 'enabled'>;
  log: Logger;
}

const auditTarget = (row: PrealertRow) => `pre-alert ${row.id} (${row.trackingNumber})`;
const auditDetail = (row: PrealertRow, receipt: string) => ({ receipt, consignee: row.consigneeId, createdBy: row.createdBy });

/**
 * The admin links a waiting pre-alert to a receipt of its consignee (a package whose label or number
 * did not match); audited, the customers told as for a package the sync found. The consignee rule is
 * the sync's: another consignee's receipt is refused.
 */
export async function matchPrealert(deps: PrealertAdminDeps, actor: AuditActor, id: number, receiptId: number): Promise<AdminPrealert> {
  const { db } = deps;
  const arrival = await db.sequelize.transaction(async (transaction) => {
    await lockPrealert(db, id, transaction);
    const [row] = await readPrealertRows(db, 'p."id" = :id', { id }, { transaction });
    if (!row) throw notFound();
    if (row.receiptId !== null) throw new AppError('CONFLICT', m.prealert_already_matched());
    const receipt = await db.models.ReceiptRecord.findByPk(receiptId, { attributes: ['id', 'number', 'consigneeId'], raw: true, transaction });
    if (!receipt) throw new AppError('NOT_FOUND', m.validation_receipt_not_found());
    if (receipt.consigneeId !== Number(row.consigneeId)) throw new AppError('CONFLICT', m.prealert_match_other_consignee({ number: receipt.number }));
    if (!(await linkPrealertToReceipt(deps, { prealertId: id, receiptId, matchedBy: 'admin' }, transaction))) {
      throw new AppError('CONFLICT', m.prealert_already_matched());
    }
    await recordAudit(deps, actor, { action: 'prealert.matched', target: auditTarget(row), detail: auditDetail(row, receipt.number) }, transaction);
    return { receiptId, number: receipt.number, consigneeId: Number(row.consigneeId), trackingNumber: row.trackingNumber, shipper: row.shipper };
  });
  if (deps.mailer.enabled) {
    await announceStatusChanges(deps, [], [arrival]).catch((error) =>
      deps.log.error({ component: 'prealerts', err: error }, 'The arrival e-mail could not be queued'),
    );
  }
  const [row] = await readPrealertRows(db, 'p."id" = :id', { id });
  return toAdminPrealert(row!);
}

/** The admin undoes a link; the sync does not link the pre-alert to that receipt again. Audited. */
export async function unmatchPrealert(deps: PrealertAdminDeps, actor: AuditActor, id: number): Promise<AdminPrealert> {
  const { db, clock } = deps;
  await db.sequelize.transaction(async (transaction) => {
    await lockPrealert(db, id, transaction);
    const [row] = await readPrealertRows(db, 'p."id" = :id', { id }, { transaction });
    if (!row) throw notFound();
    if (row.receiptId === null) throw new AppError('CONFLICT', m.prealert_not_matched());
    await db.models.Prealert.update(
      { receiptId: null, matchedAt: null, matchedBy: null, declinedReceiptId: Number(row.receiptId), updatedAt: new Date(clock.now()) },
      { where: { id }, transaction },
    );
    // Expected again: the provider is told to wait for its package.
    await enqueueJobs(deps, [forwardJob(id)], transaction);
    const receipt = await db.models.ReceiptRecord.findByPk(Number(row.receiptId), { attributes: ['number'], raw: true, transaction });
    await recordAudit(
      deps,
      actor,
      { action: 'prealert.unmatched', target: auditTarget(row), detail: auditDetail(row, receipt?.number ?? String(row.receiptId)) },
      transaction,
    );
  });
  const [row] = await readPrealertRows(db, 'p."id" = :id', { id });
  return toAdminPrealert(row!);
}

const forwardPayloadSchema = z.object({ prealertId: z.number().check(z.int(), z.positive()) });

export interface PrealertForwardingDeps {
  db: Database;
  provider: ProviderClient;
  log: Logger;
}

/** A pre-alert as the provider is told of it. */
function toProviderPrealert(row: PrealertRow): ProviderPrealert {
  return {
    id: Number(row.id),
    consigneeId: Number(row.consigneeId),
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    shipper: row.shipper,
    description: row.description,
    declaredValue: { amount: (Number(row.declaredValueCents) / 100).toFixed(2), currency: 'USD' },
    hasInvoice: row.invoiceFileName !== null,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

/**
 * Tells the provider what it should know of a pre-alert now, when it offers pre-alerts: a waiting one
 * is saved (an upsert by the portal's id, so a retry or an edit is harmless), and one withdrawn or
 * already arrived is withdrawn, since nothing waits for it any more. Each job sends the state of the
 * moment; a pre-alert's jobs run one after another (their ordering key), so the last word sent is the
 * state after its last change.
 */
export async function forwardPrealert(deps: PrealertForwardingDeps, payload: unknown): Promise<void> {
  const parsed = forwardPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new JobRefused('The job names no pre-alert');
  const { prealertId } = parsed.data;
  try {
    if (!(await deps.provider.readCapabilities()).prealerts) return;
    const [row] = await readPrealertRows(deps.db, 'p."id" = :prealertId', { prealertId });
    if (row && row.receiptId === null) await deps.provider.savePrealert(toProviderPrealert(row));
    else await deps.provider.withdrawPrealert(prealertId);
  } catch (error) {
    // A refusal of the request as it is stays a refusal however often it is sent.
    if (error instanceof ProviderRefusal) throw new JobRefused(error.message);
    throw error;
  }
}

/** The outbox's handler of PREALERT_FORWARD_JOB, which the composition root registers. */
export function createPrealertForwarder(deps: PrealertForwardingDeps): JobHandler {
  return {
    run: (payload) => forwardPrealert(deps, payload),
    firstRetryMs: FORWARD_FIRST_RETRY_MS,
    giveUpAfterMs: FORWARD_GIVE_UP_MS,
    async gaveUp(payload, job, error) {
      deps.log.error(
        { component: 'prealerts', jobId: job.id, attempts: job.attempts, payload, error },
        'A pre-alert could not be told to the provider; given up (the admin sees it among the stale pre-alerts if its package does not come)',
      );
    },
  };
}
