/**
 * The audit trail: every admin action and every admin sign-in, with who, what, on what, from where,
 * and a short detail that never holds a secret. Entries outlive the accounts they name.
 */
import { Op, fn, col, where as whereOf, type Transaction, type WhereOptions } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { getLocale } from '~/paraglide/runtime.js';
import {
  auditDetailText,
  type AuditAction,
  type AuditDetails,
  type AuditEntryDto,
  type AuditFields,
  type AuditFilters,
  type AuditList,
  type AuditQuery,
} from '~/shared/audit';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { csvLines, UTF8_BOM, type CsvCell } from '../../csv';
import type { Database } from '../../db/database';
import type { AuditEntry } from '../../db/models';
import { inLocale } from '../../locale';
import { DAY_MS } from '~/shared/constants';
import { paginationOf } from '~/shared/receipts';

const TARGET_MAX = 200;
export const AUDIT_EXPORT_BATCH_SIZE = 1_000;

/** How an entry names a user it acted on, the same in every entry: `user alice`. */
export const userTarget = (username: string) => `user ${username}`;

/** Who acted: the signed-in user (null when nobody is, as for a failed sign-in) and their address. */
export interface AuditActor {
  id: number | null;
  username: string;
  clientAddress: string | null;
}

/**
 * The actor of an entry nobody signed in to write: a reset asked for, a sign-in under a name no account
 * has. Never the name typed, which anyone can make up; a name kept goes into the detail.
 */
export const UNKNOWN_ACTOR_NAME = 'unknown user';
export const strangerActor = (clientAddress: string | null): AuditActor => ({
  id: null,
  username: UNKNOWN_ACTOR_NAME,
  clientAddress,
});

/** A user acting for themselves (their password, their share links, their pre-alerts), from this address. */
export const selfActor = (
  user: { id: number; username: string },
  clientAddress: string | null,
): AuditActor => ({
  id: user.id,
  username: user.username,
  clientAddress,
});

/** One entry of any action, with the detail that action holds (AuditDetails). */
export type AuditRecord = {
  [Action in AuditAction]: {
    action: Action;
    /** What was acted on, in words an admin recognises: `user alice`, `consignee 42`. */
    target?: string | null;
    /** Named values, stored as JSON, so that text someone chose (a token's name) cannot pass for another field. */
    detail?: AuditDetails[Action];
  };
}[AuditAction];

/** Each text value of a detail is cut to this length, and each list to LIST_MAX, so that the JSON stays short. */
const FIELD_MAX = 100;
const LIST_MAX = 20;

function storedDetail(
  detail: Readonly<Record<string, AuditFields[string] | undefined>> | null | undefined,
): string | null {
  if (!detail) return null;
  const fields = Object.entries(detail).filter(([, value]) => value !== undefined);
  if (!fields.length) return null;
  return JSON.stringify(
    Object.fromEntries(
      fields.map(([name, value]) => [
        name,
        typeof value === 'string'
          ? value.slice(0, FIELD_MAX)
          : Array.isArray(value)
            ? value.slice(0, LIST_MAX)
            : value,
      ]),
    ),
  );
}

export interface AuditDeps {
  db: Database;
  clock: Clock;
}

/** Writes one entry; inside the action's transaction when it has one, so both land or neither. */
export async function recordAudit(
  deps: AuditDeps,
  actor: AuditActor,
  record: AuditRecord,
  transaction?: Transaction,
): Promise<void> {
  await deps.db.models.AuditEntry.create(
    {
      at: new Date(deps.clock.now()),
      actorId: actor.id,
      actorName: actor.username.slice(0, 128),
      action: record.action,
      target: record.target?.slice(0, TARGET_MAX) ?? null,
      clientAddress: actor.clientAddress,
      detail: storedDetail(record.detail),
    },
    { transaction },
  );
}

/** The filters as a condition; days are whole UTC days, `to` included. */
function filterWhere(filters: AuditFilters): WhereOptions<AuditEntry> {
  const conditions: WhereOptions<AuditEntry>[] = [];
  // Usernames are stored lowercased: a name typed in any case finds them.
  if (filters.actor)
    conditions.push(whereOf(fn('lower', col('actorName')), filters.actor.toLowerCase()));
  if (filters.action) conditions.push({ action: filters.action });
  if (filters.from) conditions.push({ at: { [Op.gte]: new Date(`${filters.from}T00:00:00Z`) } });
  if (filters.to)
    conditions.push({ at: { [Op.lt]: new Date(Date.parse(`${filters.to}T00:00:00Z`) + DAY_MS) } });
  return { [Op.and]: conditions };
}

const NEWEST_FIRST: Array<[string, string]> = [
  ['at', 'DESC'],
  ['id', 'DESC'],
];

function toDto(row: AuditEntry): AuditEntryDto {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    actorId: row.actorId,
    actorName: row.actorName,
    action: row.action,
    target: row.target,
    clientAddress: row.clientAddress,
    detail: auditDetailText(row.detail),
  };
}

/** One page of the entries the filters match, newest first. */
export async function listAuditEntries(
  { db }: { db: Database },
  query: AuditQuery,
): Promise<AuditList> {
  const { rows, count } = await db.models.AuditEntry.findAndCountAll({
    where: filterWhere(query),
    order: NEWEST_FIRST,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { data: rows.map(toDto), pagination: paginationOf(query.page, query.limit, count) };
}

function headerRow(): CsvCell[] {
  return [
    m.audit_column_time(),
    m.audit_column_actor(),
    m.audit_column_action(),
    m.audit_column_target(),
    m.audit_column_address(),
    m.audit_column_detail(),
  ];
}

/**
 * The time in ISO 8601 and the action as stored, so that a spreadsheet or a script reads them
 * alike; the detail as the screen shows it.
 */
function entryRow(entry: AuditEntry): CsvCell[] {
  return [
    new Date(entry.at).toISOString(),
    entry.actorName,
    entry.action,
    entry.target ?? '',
    entry.clientAddress ?? '',
    auditDetailText(entry.detail) ?? '',
  ];
}

export interface AuditExport {
  /** `activity-YYYY-MM-DD.csv`, the day of the export. */
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * Every entry the filters match as CSV, newest first, read a batch at a time as the client takes them.
 * Each batch continues after the last entry sent, so entries written meanwhile neither repeat nor
 * push others out.
 */
export async function exportAuditEntries(
  deps: AuditDeps,
  actor: AuditActor,
  filters: AuditFilters,
): Promise<AuditExport> {
  const { db, clock } = deps;
  // Written first, and the export reads up to the time after it: the export holds its own entry too.
  await recordAudit(deps, actor, {
    action: 'audit.exported',
    detail: { actor: filters.actor, action: filters.action, from: filters.from, to: filters.to },
  });
  const now = new Date(clock.now());
  // The stream is read after the request's handler has returned: its header is built in the
  // request's language explicitly.
  const locale = getLocale();
  const encoder = new TextEncoder();
  const first = { at: now, id: Number.MAX_SAFE_INTEGER };
  let last: { at: Date; id: number } | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(UTF8_BOM + csvLines([inLocale(locale, headerRow)])));
    },
    async pull(controller) {
      const after = last ?? first;
      const rows = await db.models.AuditEntry.findAll({
        where: {
          [Op.and]: [
            filterWhere(filters),
            {
              [Op.or]: [{ at: { [Op.lt]: after.at } }, { at: after.at, id: { [Op.lt]: after.id } }],
            },
            // Entries written after the export began are not part of it.
            { at: { [Op.lte]: now } },
          ],
        },
        order: NEWEST_FIRST,
        limit: AUDIT_EXPORT_BATCH_SIZE,
      });
      if (rows.length)
        controller.enqueue(encoder.encode(csvLines(inLocale(locale, () => rows.map(entryRow)))));
      if (rows.length < AUDIT_EXPORT_BATCH_SIZE) return controller.close();
      const end = rows.at(-1)!;
      last = { at: new Date(end.at), id: end.id };
    },
  });
  return { filename: `activity-${now.toISOString().slice(0, 10)}.csv`, body };
}

/** Housekeeping: entries older than AUDIT_RETENTION_DAYS go. */
export async function purgeOldAuditEntries({
  db,
  clock,
  config,
}: AuditDeps & { config: Pick<Config, 'auditRetentionDays'> }): Promise<void> {
  const cutoff = new Date(clock.now() - config.auditRetentionDays * DAY_MS);
  await db.models.AuditEntry.destroy({ where: { at: { [Op.lt]: cutoff } } });
}
