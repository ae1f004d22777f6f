/**
 * The admin's view of pre-alerts: the stale ones, the recent matches, the recent receipts no pre-alert
 * is linked to, and linking or unlinking one by hand (audited; the customers told as for a package the
 * sync found).
 */
import { QueryTypes } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { DAY_MS } from '~/shared/constants';
import {
  UNMATCHED_RECEIPTS_DAYS,
  type AdminPrealert,
  type AdminPrealertList,
  type AdminPrealertQuery,
  type UnmatchedReceipt,
} from '~/shared/prealerts';
import { paginationOf } from '~/shared/receipts';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail/mailer';
import { recordAudit, type AuditActor } from '../audit';
import { enqueueJobs } from '../outbox';
import { announceStatusChanges, type StatusEmailDeps } from '../notifications';
import { forwardJob } from './forwarding';
import { linkPrealertToReceipt } from './matching';
import {
  auditTarget,
  countPrealerts,
  isoTime,
  lockPrealert,
  notFound,
  readPrealertRows,
  toAdminPrealert,
  type PrealertRow,
} from './rows';

/**
 * One page of the admin's view: stale pre-alerts (oldest first), recent matches, or recent receipts
 * without a pre-alert.
 */
export async function listAdminPrealerts(
  deps: { db: Database; clock: Clock; config: Pick<Config, 'prealertStaleDays'> },
  query: AdminPrealertQuery,
): Promise<AdminPrealertList> {
  const { db, clock, config } = deps;
  const offset = (query.page - 1) * query.limit;
  if (query.state === 'unmatched-receipts') {
    const since = new Date(clock.now() - UNMATCHED_RECEIPTS_DAYS * DAY_MS);
    const { data, total } = await readUnmatchedReceipts(db, { since, limit: query.limit, offset });
    return { state: query.state, data, pagination: paginationOf(query.page, query.limit, total) };
  }
  const where =
    query.state === 'stale'
      ? 'p."receiptId" IS NULL AND p."createdAt" < :staleBefore'
      : 'p."receiptId" IS NOT NULL';
  const replacements = { staleBefore: new Date(clock.now() - config.prealertStaleDays * DAY_MS) };
  const order =
    query.state === 'stale' ? 'p."createdAt" ASC, p."id" ASC' : 'p."matchedAt" DESC, p."id" DESC';
  const [rows, total] = await Promise.all([
    readPrealertRows(db, where, replacements, { order, limit: query.limit, offset }),
    countPrealerts(db, where, replacements),
  ]);
  return {
    state: query.state,
    data: rows.map(toAdminPrealert),
    pagination: paginationOf(query.page, query.limit, total),
  };
}

/**
 * Receipts received since `since` that no pre-alert is linked to, newest first, with their
 * packages' tracking numbers.
 */
async function readUnmatchedReceipts(
  db: Database,
  page: { since: Date; limit: number; offset: number },
): Promise<{ data: UnmatchedReceipt[]; total: number }> {
  const unmatched = `r."receivedDate" >= :since AND NOT EXISTS (SELECT 1 FROM "prealerts" p
  WHERE p."receiptId" = r."id")`;
  const [rows, [count]] = await Promise.all([
    db.sequelize.query<UnmatchedReceiptRow>(
      `SELECT ${UNMATCHED_RECEIPT_COLUMNS} FROM "receipts" r
        WHERE ${unmatched} ORDER BY r."receivedDate" DESC, r."id" DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      { type: QueryTypes.SELECT, replacements: page },
    ),
    db.sequelize.query<{ count: number | string }>(
      `SELECT COUNT(*) AS "count" FROM "receipts" r WHERE ${unmatched}`,
      {
        type: QueryTypes.SELECT,
        replacements: page,
      },
    ),
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
const UNMATCHED_RECEIPT_COLUMNS =
  'r."id", r."number", r."receivedDate", r."consigneeId", r."consigneeName", r."shipperName"';

async function withTrackingNumbers(
  db: Database,
  rows: UnmatchedReceiptRow[],
): Promise<UnmatchedReceipt[]> {
  const ids = rows.map((row) => Number(row.id));
  const packages =
    ids.length === 0
      ? []
      : await db.sequelize.query<{ receiptId: number; trackingNumber: string }>(
          `SELECT "receiptId", "trackingNumber" FROM "packages" WHERE "receiptId" IN (:ids)
                 AND "trackingNumber" IS NOT NULL ORDER BY "receiptId", "position"`,
          { type: QueryTypes.SELECT, replacements: { ids } },
        );
  return rows.map((row) => ({
    id: Number(row.id),
    number: row.number,
    receivedDate: row.receivedDate === null ? null : isoTime(row.receivedDate),
    consigneeId: row.consigneeId === null ? null : Number(row.consigneeId),
    consigneeName: row.consigneeName,
    shipperName: row.shipperName,
    trackingNumbers: packages
      .filter((item) => Number(item.receiptId) === Number(row.id))
      .map((item) => item.trackingNumber),
  }));
}

/** What the admin's match forms offer per consignee at most: a choice, not a list to scroll. */
const MATCH_CHOICES_PER_CONSIGNEE = 25;

/**
 * The waiting pre-alerts of these consignees, oldest first (a few per consignee): what the admin
 * may link their receipts to.
 */
export async function listExpectedPrealerts(
  { db }: { db: Database },
  consigneeIds: number[],
): Promise<AdminPrealert[]> {
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

/**
 * Recent receipts of these consignees without a pre-alert, newest first (a few per consignee): what
 * the admin may link a stale pre-alert to.
 */
export async function listUnmatchedReceiptsOf(
  { db, clock }: { db: Database; clock: Clock },
  consigneeIds: number[],
): Promise<UnmatchedReceipt[]> {
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
    {
      type: QueryTypes.SELECT,
      replacements: { consigneeIds, since, perConsignee: MATCH_CHOICES_PER_CONSIGNEE },
    },
  );
  return withTrackingNumbers(db, rows);
}

export interface PrealertAdminDeps extends StatusEmailDeps {
  mailer: Pick<Mailer, 'enabled'>;
  log: Logger;
}

const auditDetail = (row: PrealertRow, receipt: string) => ({
  receipt,
  consignee: row.consigneeId,
  createdBy: row.createdBy,
});

/**
 * The admin links a waiting pre-alert to a receipt of its consignee (a package whose label or number
 * did not match); audited, the customers told as for a package the sync found. The consignee rule is
 * the sync's: another consignee's receipt is refused.
 */
export async function matchPrealert(
  deps: PrealertAdminDeps,
  actor: AuditActor,
  id: number,
  receiptId: number,
): Promise<AdminPrealert> {
  const { db } = deps;
  const arrival = await db.sequelize.transaction(async (transaction) => {
    await lockPrealert(db, id, transaction);
    const [row] = await readPrealertRows(db, 'p."id" = :id', { id }, { transaction });
    if (!row) throw notFound();
    if (row.receiptId !== null) throw new AppError('CONFLICT', m.prealert_already_matched());
    const receipt = await db.models.ReceiptRecord.findByPk(receiptId, {
      attributes: ['id', 'number', 'consigneeId'],
      raw: true,
      transaction,
    });
    if (!receipt) throw new AppError('NOT_FOUND', m.validation_receipt_not_found());
    if (receipt.consigneeId !== Number(row.consigneeId))
      throw new AppError('CONFLICT', m.prealert_match_other_consignee({ number: receipt.number }));
    if (
      !(await linkPrealertToReceipt(
        deps,
        { prealertId: id, receiptId, matchedBy: 'admin' },
        transaction,
      ))
    ) {
      throw new AppError('CONFLICT', m.prealert_already_matched());
    }
    await recordAudit(
      deps,
      actor,
      {
        action: 'prealert.matched',
        target: auditTarget(row),
        detail: auditDetail(row, receipt.number),
      },
      transaction,
    );
    return {
      receiptId,
      number: receipt.number,
      consigneeId: Number(row.consigneeId),
      trackingNumber: row.trackingNumber,
      shipper: row.shipper,
    };
  });
  if (deps.mailer.enabled) {
    await announceStatusChanges(deps, [], [arrival]).catch((error) =>
      deps.log.error(
        { component: 'prealerts', err: error },
        'The arrival e-mail could not be queued',
      ),
    );
  }
  const [row] = await readPrealertRows(db, 'p."id" = :id', { id });
  return toAdminPrealert(row!);
}

/** The admin undoes a link; the sync does not link the pre-alert to that receipt again. Audited. */
export async function unmatchPrealert(
  deps: PrealertAdminDeps,
  actor: AuditActor,
  id: number,
): Promise<AdminPrealert> {
  const { db, clock } = deps;
  await db.sequelize.transaction(async (transaction) => {
    await lockPrealert(db, id, transaction);
    const [row] = await readPrealertRows(db, 'p."id" = :id', { id }, { transaction });
    if (!row) throw notFound();
    if (row.receiptId === null) throw new AppError('CONFLICT', m.prealert_not_matched());
    await db.models.Prealert.update(
      {
        receiptId: null,
        matchedAt: null,
        matchedBy: null,
        declinedReceiptId: Number(row.receiptId),
        updatedAt: new Date(clock.now()),
      },
      { where: { id }, transaction },
    );
    // Expected again: the provider is told to wait for its package.
    await enqueueJobs(deps, [forwardJob(id)], transaction);
    const receipt = await db.models.ReceiptRecord.findByPk(Number(row.receiptId), {
      attributes: ['number'],
      raw: true,
      transaction,
    });
    await recordAudit(
      deps,
      actor,
      {
        action: 'prealert.unmatched',
        target: auditTarget(row),
        detail: auditDetail(row, receipt?.number ?? String(row.receiptId)),
      },
      transaction,
    );
  });
  const [row] = await readPrealertRows(db, 'p."id" = :id', { id });
  return toAdminPrealert(row!);
}
