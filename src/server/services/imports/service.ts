/**
 * One import: a file read, compared with what earlier imports wrote (imported_receipts, by receipt
 * number and fingerprint), and what changed written the way a sync writes it (sync.ts
 * writeReceiptsAsSync); a full list removes the rest. The history and the state Token Management shows.
 */
import { Op } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  importMappingSchema,
  type ImportMapping,
  type ImportResult,
  type ImportRowError,
  type ImportRun,
  type ImportsState,
} from '~/shared/imports';
import type { Config } from '../../config';
import type { WriteTurns } from '../../db/write-turns';
import { AppError } from '../../errors';
import type { ProviderReceipt } from '../../provider/contract';
import { writeReceiptsAsSync, type SyncDeps, type SyncRunner } from '../sync';
import type { SyncAnnouncement } from '../sync-reactions';
import { recordAudit, type AuditActor } from '../audit';
import { detectFormat, readCsv, readXlsx, type ImportFormat } from './formats';
import { fingerprintOf, readMagayaFile, readSheet, type ReadFile } from './read';

export interface ImportDeps extends Omit<SyncDeps, 'reactions'> {
  /** What reacts to imported receipts as to a sync's pages (the composition root's). */
  syncReactions: SyncAnnouncement;
  config: SyncDeps['config'] & Pick<Config, 'provider' | 'importDir' | 'importDateOrder'>;
  /** This process's imports, one at a time, their files read in their turn. */
  importTurns: Pick<WriteTurns, 'take'>;
  /**
   * The syncs' turn, across processes: an import holds it from reading the stored state to its last
   * write, since a new receipt's or consignee's id is the next after those it read.
   */
  syncRuns: Pick<SyncRunner, 'writeInTurn'>;
}

export interface ImportRequest {
  /** Where the file is now. */
  path: string;
  /** Its name as the admin or the folder knows it. */
  fileName: string;
  dryRun: boolean;
  full: boolean;
  mapping: ImportMapping;
  via: 'upload' | 'folder';
  /** The admin who uploaded it; null for the folder. */
  by: AuditActor | null;
}

/**
 * Receipts made and written at a time. Smaller than a sync's page: a page's receipts and rows live
 * until its transaction ends, and the fewer the megabytes allocated meanwhile, the fewer of them
 * outlive the young generation only to pile up as garbage in the old one (at 500, about 2 KB a
 * receipt did: 160 MB for a 100,000-row file).
 */
const IMPORT_PAGE_SIZE = 100;

/** Imports are for PROVIDER=file: any other provider fills the mirror itself. */
export function requireFileProvider(config: Pick<Config, 'provider'>): void {
  if (config.provider !== 'file') throw new AppError('CONFLICT', m.import_needs_file_provider());
}

/** The `mapping` field: a JSON object from field to header. */
export function parseMappingField(text: string | undefined): ImportMapping {
  if (!text?.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_ERROR', m.import_mapping_invalid(), {
      details: [{ field: 'mapping', message: m.import_mapping_invalid() }],
    });
  }
  const parsed = importMappingSchema.safeParse(value);
  if (!parsed.success)
    throw new AppError('VALIDATION_ERROR', m.import_mapping_invalid(), {
      details: [{ field: 'mapping', message: m.import_mapping_invalid() }],
    });
  return parsed.data;
}

async function readFile(
  deps: ImportDeps,
  request: ImportRequest,
): Promise<{ format: ImportFormat; read: ReadFile }> {
  const { format, encoding } = await detectFormat(request.path);
  if (format === 'xml') return { format, read: await readMagayaFile(request.path) };
  const rows = format === 'xlsx' ? readXlsx(request.path) : readCsv(request.path, encoding);
  const { ImportMapping: Mappings } = deps.db.models;
  const savedMapping = async (signature: string) => {
    const row = await Mappings.findByPk(signature, { raw: true });
    if (!row) return null;
    const parsed = importMappingSchema.safeParse(JSON.parse(row.mapping));
    return parsed.success ? parsed.data : null;
  };
  return {
    format,
    read: await readSheet(rows, {
      mapping: request.mapping,
      savedMapping,
      dateOrder: deps.config.importDateOrder,
    }),
  };
}

/**
 * Reads a file and, unless it is a dry run, writes what changed: new receipts, changed ones, and with
 * `full` the removal of those the file does not name. Bad rows are reported; the good ones land.
 */
export async function importReceipts(
  deps: ImportDeps,
  request: ImportRequest,
): Promise<ImportResult> {
  requireFileProvider(deps.config);
  // A dry run writes nothing: it neither waits nor holds up anyone.
  if (request.dryRun) return compareAndWrite(deps, request, await readFile(deps, request));
  return deps.importTurns.take(async () => {
    const file = await readFile(deps, request);
    return deps.syncRuns.writeInTurn(() => compareAndWrite(deps, request, file));
  });
}

/** Compares the file read with what earlier imports wrote and, unless it is a dry run, writes what changed. */
async function compareAndWrite(
  deps: ImportDeps,
  request: ImportRequest,
  { format, read }: { format: ImportFormat; read: ReadFile },
): Promise<ImportResult> {
  const { db, clock } = deps;
  const {
    ImportedReceipt,
    ReceiptRecord,
    Consignee,
    ImportRun: Runs,
    ImportMapping: Mappings,
  } = db.models;

  const [known, stored] = await Promise.all([
    ImportedReceipt.findAll({ raw: true }),
    ReceiptRecord.findAll({ attributes: ['id', 'providerUpdatedAt'], raw: true }),
  ]);
  const versions = new Map(
    stored.map((row) => [row.id, new Date(row.providerUpdatedAt).getTime()]),
  );
  // A receipt is known by its number while its row is still in the mirror.
  const byNumber = new Map(
    known.filter((row) => versions.has(row.receiptId)).map((row) => [row.number, row]),
  );
  // By number only: the receipts are made again, a page at a time, as they are written.
  const created: string[] = [];
  const updated: string[] = [];
  let unchanged = 0;
  for (const number of read.receipts.numbers()) {
    const was = byNumber.get(number);
    if (!was) created.push(number);
    else if (was.fingerprint !== fingerprintOf(read.receipts.receipt(number))) updated.push(number);
    else unchanged += 1;
  }
  const keptIds = new Set<number>();
  for (const number of [...read.receipts.numbers(), ...read.refusedNumbers]) {
    const id = byNumber.get(number)?.receiptId;
    if (id !== undefined) keptIds.add(id);
  }
  const remove = request.full ? stored.map((row) => row.id).filter((id) => !keptIds.has(id)) : [];
  const result: ImportResult = {
    dryRun: request.dryRun,
    format,
    created: created.length,
    updated: updated.length,
    unchanged,
    removed: remove.length,
    errors: read.errors,
    headers: read.headers,
    mapping: read.mapping,
    preview: read.preview,
  };
  if (request.dryRun) return result;

  const now = clock.now();
  // Consignees by name: one the portal knows keeps its id (and its assigned customers); a new name gets the next id.
  const consigneeIds = new Map(
    (await Consignee.findAll({ attributes: ['id', 'name'], raw: true })).map((row) => [
      row.name.trim().toLowerCase(),
      row.id,
    ]),
  );
  let nextConsigneeId = [...consigneeIds.values()].reduce((max, id) => Math.max(max, id), 0) + 1;
  const newConsignees: { id: number; name: string }[] = [];
  const consigneeOf = (name: string) => {
    const key = name.trim().toLowerCase();
    if (!key) return null;
    let id = consigneeIds.get(key);
    if (id === undefined) {
      id = nextConsigneeId++;
      consigneeIds.set(key, id);
      newConsignees.push({ id, name: name.trim().slice(0, 200) });
    }
    return id;
  };
  let nextReceiptId =
    [...stored.map((row) => row.id), ...known.map((row) => row.receiptId)].reduce(
      (max, id) => Math.max(max, id),
      0,
    ) + 1;
  const changed = [...created, ...updated];
  const ids = changed.map((number) => byNumber.get(number)?.receiptId ?? nextReceiptId++);
  for (const number of changed) consigneeOf(read.receipts.receipt(number).consigneeName);
  /** The fingerprints of the receipts made for the page being written, by id. */
  const pageFingerprints = new Map<number, string>();
  /** Each receipt as the mirror takes it, made as its page is written. */
  const providerReceipts = function* (): Generator<ProviderReceipt> {
    for (const [index, number] of changed.entries()) {
      const id = ids[index]!;
      const receipt = read.receipts.receipt(number);
      pageFingerprints.set(id, fingerprintOf(receipt));
      // A newer version than the stored one, even within the same millisecond: writePage writes only what is newer.
      const version = Math.max(now, (versions.get(id) ?? 0) + 1);
      const { originName, ...rest } = receipt;
      yield {
        ...rest,
        id,
        consigneeId: consigneeOf(receipt.consigneeName),
        origin: { name: originName },
        updatedAt: new Date(version).toISOString(),
      };
    }
  };
  if (newConsignees.length > 0) {
    const date = new Date(now);
    await Consignee.bulkCreate(
      newConsignees.map((row) => ({ ...row, createdAt: date, updatedAt: date })),
    );
  }
  await ImportedReceipt.destroy({ where: { receiptId: { [Op.in]: remove } } });
  await writeReceiptsAsSync({ ...deps, reactions: deps.syncReactions }, providerReceipts(), {
    remove,
    pageSize: IMPORT_PAGE_SIZE,
    withPage: async (page, transaction) => {
      await ImportedReceipt.bulkCreate(
        page.map((receipt) => ({
          number: receipt.number,
          receiptId: receipt.id,
          fingerprint: pageFingerprints.get(receipt.id)!,
        })),
        { transaction, updateOnDuplicate: ['receiptId', 'fingerprint'] },
      );
      for (const receipt of page) pageFingerprints.delete(receipt.id);
    },
  });
  if (read.signature && Object.keys(request.mapping).length > 0) {
    await Mappings.upsert({
      signature: read.signature,
      mapping: JSON.stringify(read.mapping),
      updatedAt: new Date(now),
    });
  }
  await Runs.create({
    fileName: request.fileName.slice(0, 255),
    format,
    via: request.via,
    userId: request.by?.id ?? null,
    username: request.by?.username ?? null,
    full: request.full,
    created: result.created,
    updated: result.updated,
    unchanged: result.unchanged,
    removed: result.removed,
    errors: JSON.stringify(read.errors),
    at: new Date(now),
  });
  if (request.by) {
    const detail = {
      fileName: request.fileName,
      imported: result.created,
      updated: result.updated,
      deleted: result.removed,
      skipped: read.errors.length,
    };
    await recordAudit(deps, request.by, {
      action: 'receipts.imported',
      target: 'receipts',
      detail,
    });
  }
  return result;
}

function runOf(row: {
  id: number;
  fileName: string;
  format: string;
  via: string;
  username: string | null;
  full: boolean | number;
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  errors: string;
  at: Date | string;
}): ImportRun {
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format,
    via: row.via === 'folder' ? 'folder' : 'upload',
    username: row.username,
    full: Boolean(row.full),
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    removed: row.removed,
    errors: JSON.parse(row.errors) as ImportRowError[],
    at: new Date(row.at).toISOString(),
  };
}

const HISTORY_SIZE = 50;

/** The last imports, newest first. */
export async function listImports(deps: { db: ImportDeps['db'] }): Promise<ImportRun[]> {
  const rows = await deps.db.models.ImportRun.findAll({
    order: [['id', 'DESC']],
    limit: HISTORY_SIZE,
    raw: true,
  });
  return rows.map(runOf);
}

/** One import, for its errors' CSV. */
export async function readImport(deps: { db: ImportDeps['db'] }, id: number): Promise<ImportRun> {
  const row = await deps.db.models.ImportRun.findByPk(id, { raw: true });
  if (!row) throw new AppError('NOT_FOUND', m.import_not_found());
  return runOf(row);
}

/** What Token Management shows with PROVIDER=file. */
export async function readImportsState(deps: {
  db: ImportDeps['db'];
  config: Pick<Config, 'importDir'>;
}): Promise<ImportsState> {
  const [last] = await listImports(deps);
  return { folder: deps.config.importDir, last: last ?? null };
}
