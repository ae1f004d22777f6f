/**
 * The mirror: receipts and their packages copied from the provider, incrementally by the
 * provider's update time, with a periodic full pass that also removes what the provider deleted.
 * One sync at a time, across every process on the database (sync-lease.ts); callers during a run share its outcome.
 * Each page's outcome is announced to the reactions the composition root registered (sync-reactions.ts):
 * the sync itself knows nothing of status histories, pre-alerts, webhooks or e-mails.
 */
import { randomUUID } from 'node:crypto';
import { Op, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { SyncResult, SyncStatus } from '~/shared/sync';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';
import type { SyncMetrics } from '../../metrics';
import { ProviderError, type ProviderClient, type ProviderReceipt } from '../../provider/contract';
import { recordAudit, type AuditActor, type AuditDeps } from '../audit';
import {
  SORTED_TEXT_COLUMNS,
  sortColumn,
  toMirrorRows,
  type MirrorFollower,
  readSyncState,
  saveSyncState,
  type LastSyncTime,
} from '../receipts';
import {
  SyncInterruptedError,
  syncExclusively,
  writeUnderLease,
  type LeaseHolder,
} from './sync-lease';
import {
  addNews,
  noNews,
  type StatusChange,
  type SyncAnnouncement,
  type SyncNews,
} from '../sync-reactions';

const PAGE_SIZE = 500;
const DELETE_CHUNK = 500;
/** A sync that wrote or removed this many receipts has the database renew its statistics (settleMirrorTables). */
const SETTLE_AFTER_ROWS = 5_000;

export interface SyncOutcome {
  full: boolean;
  /** Receipts written because they were new or changed. */
  written: number;
  deleted: number;
  /** Statuses that changed in this sync (recorded here, not by a sync running beside it). */
  statusChanges: StatusChange[];
  finishedAt: Date;
}

const UPDATABLE = [
  'number',
  'receivedDate',
  'shipperName',
  'consigneeId',
  'consigneeName',
  'pieces',
  'totalWeightValue',
  'totalVolumeValue',
  'destination',
  'status',
  'modeOfTransportation',
  'originName',
  'searchText',
  'providerUpdatedAt',
  ...SORTED_TEXT_COLUMNS.map(sortColumn),
] as const;

/** What a sync takes. */
export interface SyncDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'syncFullIntervalSeconds'>;
  provider: ProviderClient;
  lastSync: LastSyncTime;
  mirror: MirrorFollower;
  log: Logger;
  metrics: SyncMetrics;
  /** Who reacts to its pages and to its end (the composition root registers them). */
  reactions: SyncAnnouncement;
}

interface PageWrite {
  written: number;
  news: SyncNews;
}

/**
 * Writes the receipts of one page that are new or changed, with the statuses they take (a receipt's
 * first mirroring takes its status from nothing), and announces them to the reactions in the same
 * transaction, so whichever process syncs does what they do, and a failing one leaves no half-written page.
 */
async function writePage(
  deps: SyncDeps,
  receipts: ProviderReceipt[],
  { syncedAt, firstMirroring }: { syncedAt: Date; firstMirroring: boolean },
  transaction: Transaction,
): Promise<PageWrite> {
  const { db } = deps;
  const { ReceiptRecord, PackageRecord } = db.models;
  const rows = receipts.map(toMirrorRows).filter((row) => row !== null);
  // A receipt changed twice within a page: its last version wins.
  const latest = new Map(rows.map((row) => [row.receipt.id, row]));
  const known = await ReceiptRecord.findAll({
    attributes: ['id', 'providerUpdatedAt', 'status'],
    where: { id: { [Op.in]: [...latest.keys()] } },
    raw: true,
    transaction,
  });
  const stored = new Map(
    known.map((row) => [
      row.id,
      { version: new Date(row.providerUpdatedAt).getTime(), status: row.status },
    ]),
  );
  const changed = [...latest.values()].filter(
    (row) => stored.get(row.receipt.id)?.version !== row.receipt.providerUpdatedAt.getTime(),
  );
  if (changed.length === 0) return { written: 0, news: noNews() };
  const statusChanges = changed
    .filter((row) => stored.get(row.receipt.id)?.status !== row.receipt.status)
    .map(({ receipt }) => ({
      receiptId: receipt.id,
      number: receipt.number,
      consigneeId: receipt.consigneeId,
      from: stored.get(receipt.id)?.status ?? null,
      to: receipt.status,
      version: receipt.providerUpdatedAt,
      at: receipt.providerUpdatedAt.getTime() > 0 ? receipt.providerUpdatedAt : syncedAt,
    }));
  const ids = changed.map((row) => row.receipt.id);
  await PackageRecord.destroy({ where: { receiptId: { [Op.in]: ids } }, transaction });
  // Plain rows, no model instances: at 100,000 receipts building instances costs seconds.
  const upsert = { transaction, updateOnDuplicate: [...UPDATABLE], upsertKeys: ['id'] };
  await db.sequelize.getQueryInterface().bulkInsert(
    'receipts',
    changed.map((row) => row.receipt),
    upsert,
    ReceiptRecord.getAttributes(),
  );
  await PackageRecord.bulkCreate(
    changed.flatMap((row) => row.packages),
    { transaction },
  );
  const written = changed.map(({ receipt, packages }) => ({
    id: receipt.id,
    number: receipt.number,
    consigneeId: receipt.consigneeId,
    trackingKeys: packages.map((item) => item.trackingKey),
  }));
  const news = await deps.reactions.pageWritten(
    { firstMirroring, written, statusChanges, removed: [] },
    transaction,
  );
  return { written: changed.length, news };
}

/** Removes the receipts the full pass did not see; their news joins `news`. */
async function removeUnseen(
  deps: SyncDeps,
  seen: Set<number>,
  firstMirroring: boolean,
  news: SyncNews,
): Promise<number> {
  const all = await deps.db.models.ReceiptRecord.findAll({ attributes: ['id'], raw: true });
  return removeReceipts(
    deps,
    all.map((row) => row.id).filter((id) => !seen.has(id)),
    firstMirroring,
    news,
  );
}

/** Removes the receipts of `ids` the mirror has (others are no matter); answers how many there were. */
async function removeDeleted(
  deps: SyncDeps,
  ids: number[],
  firstMirroring: boolean,
  news: SyncNews,
): Promise<number> {
  const mirrored = await deps.db.models.ReceiptRecord.findAll({
    attributes: ['id'],
    where: { id: { [Op.in]: ids } },
    raw: true,
  });
  return removeReceipts(
    deps,
    mirrored.map((row) => row.id),
    firstMirroring,
    news,
  );
}

/** Removes the receipts of `gone`, announcing each chunk as a page; their news joins `news`. */
async function removeReceipts(
  deps: SyncDeps,
  gone: number[],
  firstMirroring: boolean,
  news: SyncNews,
): Promise<number> {
  const { db } = deps;
  const { ReceiptRecord, PackageRecord } = db.models;
  for (let start = 0; start < gone.length; start += DELETE_CHUNK) {
    const chunk = gone.slice(start, start + DELETE_CHUNK);
    const removal = await db.sequelize.transaction(async (transaction) => {
      await PackageRecord.destroy({ where: { receiptId: { [Op.in]: chunk } }, transaction });
      await ReceiptRecord.destroy({ where: { id: { [Op.in]: chunk } }, transaction });
      return deps.reactions.pageWritten(
        { firstMirroring, written: [], statusChanges: [], removed: chunk },
        transaction,
      );
    });
    addNews(news, removal);
  }
  return gone.length;
}

/** One sync: `stopRequested` is asked after every page, so a shutdown stops it at a page's end. */
async function runSync(
  deps: SyncDeps,
  forceFull: boolean,
  stopRequested: () => boolean,
): Promise<SyncOutcome> {
  const { db, clock, config, provider: client } = deps;
  const startedAt = performance.now();
  const syncedAt = new Date(clock.now());
  const state = await readSyncState(deps);
  // Until a sync has succeeded once, the mirror is being filled for the first time (resumed after a restart too).
  const firstMirroring = !state.lastSuccessAt;
  const fullDue =
    !state.lastFullSyncAt ||
    clock.now() - new Date(state.lastFullSyncAt).getTime() >= config.syncFullIntervalSeconds * 1000;
  const full = forceFull || fullDue || !state.cursor;
  // A pass the provider made complete on its own counts as full once it has ended.
  let complete = full;
  const seen = new Set<number>();
  let cursor = full ? null : state.cursor;
  let written = 0;
  let deleted = 0;
  // The news of the pages committed so far.
  const news = noNews();
  let stopped = false;
  try {
    let nextPage = client.listReceiptChanges(cursor, PAGE_SIZE);
    for (;;) {
      const page = await nextPage;
      // The next page travels while this one is written: the provider and the database work side by side.
      if (page.hasMore) {
        nextPage = client.listReceiptChanges(page.nextCursor ?? cursor, PAGE_SIZE);
        nextPage.catch(() => {});
      }
      for (const receipt of page.receipts)
        if (Number.isSafeInteger(receipt?.id)) seen.add(receipt.id);
      if (page.complete) complete = true;
      const pageWrite = await db.sequelize.transaction((transaction) =>
        writePage(deps, page.receipts, { syncedAt, firstMirroring }, transaction),
      );
      written += pageWrite.written;
      addNews(news, pageWrite.news);
      if (page.deletedIds?.length)
        deleted += await removeDeleted(
          deps,
          page.deletedIds.filter((id) => !seen.has(id)),
          firstMirroring,
          news,
        );
      // Keep the place after every page: an interrupted pass resumes instead of starting over.
      if (page.nextCursor) cursor = page.nextCursor;
      if (!full) await saveSyncState(deps, { cursor });
      if (!page.hasMore) break;
      if (stopRequested()) {
        stopped = true;
        break;
      }
    }
    if (stopped) {
      // Its pages are kept, but it is no success, and it saw too little to remove anything. An
      // incremental sync kept its place page by page; a full pass keeps none, so the next is full again.
      const next = full
        ? 'the next sync starts the full pass over'
        : 'the next sync carries on from there';
      deps.log.info(
        { component: 'sync', receipts: seen.size, written },
        `Receipt mirror: sync stopped for the shutdown after ${seen.size} receipts (${written} written); ${next}.`,
      );
      throw new SyncInterruptedError();
    }
    if (complete) deleted += await removeUnseen(deps, seen, firstMirroring, news);
    const now = new Date(clock.now());
    await saveSyncState(deps, {
      cursor,
      lastSuccessAt: now,
      lastWritten: written,
      lastDeleted: deleted,
      lastError: null,
      lastErrorAt: null,
      ...(complete && { lastFullSyncAt: now }),
    });
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    const summary = {
      component: 'sync',
      full,
      receipts: seen.size,
      written,
      deleted,
      durationMs: Math.round(performance.now() - startedAt),
    };
    if (full)
      deps.log.info(
        summary,
        `Receipt mirror: full sync of ${seen.size} receipts in ${seconds} s (${written} written, ${deleted} removed).`,
      );
    else
      deps.log.debug(
        summary,
        `Receipt mirror: sync of ${seen.size} changed receipts in ${seconds} s.`,
      );
    return { full, written, deleted, statusChanges: news.statusChanges, finishedAt: now };
  } catch (error) {
    if (!(error instanceof SyncInterruptedError))
      await saveSyncState(deps, {
        lastError: error instanceof Error ? error.message : String(error),
        lastErrorAt: new Date(clock.now()),
      });
    throw error;
  } finally {
    // Even a pass that failed half-way may have written pages: their changes are in the history now,
    // so no later sync would find them again.
    await endWriting(deps, news, written + deleted);
  }
}

/**
 * Receipts that came another way than the provider's pages (a file import, PROVIDER=file), written as
 * a sync writes its pages, so that status history, e-mails, webhooks and pre-alert matching react
 * alike; `remove` are removed as a full sync removes what the provider deleted. `withPage` writes what
 * belongs with a page in its transaction. `pageSize` receipts are made and written at a time (a sync's
 * page by default).
 */
export async function writeReceiptsAsSync(
  deps: SyncDeps,
  receipts: Iterable<ProviderReceipt>,
  {
    remove,
    withPage,
    pageSize = PAGE_SIZE,
  }: {
    remove: number[];
    withPage: (receipts: ProviderReceipt[], transaction: Transaction) => Promise<void>;
    pageSize?: number;
  },
): Promise<{ written: number; deleted: number }> {
  const { db, clock } = deps;
  const syncedAt = new Date(clock.now());
  const firstMirroring = !(await readSyncState(deps)).lastSuccessAt;
  let written = 0;
  let deleted = 0;
  const news = noNews();
  try {
    // Taken a page at a time: the receipts of a large file are made only as their page is written.
    const pages = function* () {
      let page: ProviderReceipt[] = [];
      for (const receipt of receipts) {
        page.push(receipt);
        if (page.length === pageSize) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    };
    for (const page of pages()) {
      const pageWrite = await db.sequelize.transaction(async (transaction) => {
        const write = await writePage(deps, page, { syncedAt, firstMirroring }, transaction);
        await withPage(page, transaction);
        return write;
      });
      written += pageWrite.written;
      addNews(news, pageWrite.news);
    }
    deleted = await removeReceipts(deps, remove, firstMirroring, news);
    const now = new Date(clock.now());
    await saveSyncState(deps, {
      lastSuccessAt: now,
      lastWritten: written,
      lastDeleted: deleted,
      lastError: null,
      lastErrorAt: null,
      lastFullSyncAt: now,
    });
    return { written, deleted };
  } finally {
    await endWriting(deps, news, written + deleted);
  }
}

/**
 * What follows a sync's or an import's writing, whether it ended or failed half-way: the reactions
 * that wait for its end, fresh statistics after many rows, and the news of a changed mirror.
 */
async function endWriting(deps: SyncDeps, news: SyncNews, rowsChanged: number): Promise<void> {
  await deps.reactions.syncEnded(news);
  if (rowsChanged >= SETTLE_AFTER_ROWS)
    await deps.db
      .settleMirrorTables()
      .catch((error) =>
        deps.log.warn({ component: 'sync', err: error }, 'The mirror tables could not be analyzed'),
      );
  if (rowsChanged > 0) await deps.mirror.announceChange();
}

const toSyncResult = (outcome: SyncOutcome): SyncResult => ({
  full: outcome.full,
  written: outcome.written,
  deleted: outcome.deleted,
  statusChanges: outcome.statusChanges.length,
  finishedAt: outcome.finishedAt.toISOString(),
});

/**
 * This process's syncs: one at a time (callers during a run share its outcome), and across processes
 * one at a time through the lease (sync-lease.ts), which imports take too. The composition root owns one.
 */
export class SyncRunner {
  private running: Promise<SyncResult> | undefined;
  private stopRequested = false;
  /** This process, as the lease's holder. */
  private readonly holderId = randomUUID();

  constructor(private readonly deps: SyncDeps) {}

  /** Syncs the mirror, or joins the sync running in this or another process, and answers its outcome. */
  syncReceipts(options: { full?: boolean } = {}): Promise<SyncResult> {
    if (this.stopRequested) return Promise.reject(new SyncInterruptedError());
    const { deps } = this;
    this.running ??= syncExclusively(this.holder(), async () =>
      toSyncResult(await this.measured(options.full ?? false)),
    )
      // A sync another process ran is answered here only once this process follows its mirror.
      .then(async (result) => {
        await deps.mirror
          .follow()
          .catch((error) =>
            deps.log.warn(
              { component: 'sync', err: error },
              'The mirror version could not be read',
            ),
          );
        return result;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /**
   * Writing of the mirror that is not a sync (an import), in the syncs' turn: after the sync or import
   * any process runs now, and none starts before it ends.
   */
  writeInTurn<T>(work: () => Promise<T>): Promise<T> {
    return writeUnderLease(this.holder(), work);
  }

  private holder(): LeaseHolder {
    const { db, clock, log } = this.deps;
    return { db, clock, log, holderId: this.holderId };
  }

  /** A sync this process runs itself (not one it waits for), counted in the metrics. */
  private async measured(full: boolean): Promise<SyncOutcome> {
    const startedAt = performance.now();
    const seconds = () => (performance.now() - startedAt) / 1000;
    try {
      const outcome = await runSync(this.deps, full, () => this.stopRequested);
      this.deps.metrics.syncFinished('success', seconds(), outcome.finishedAt.getTime());
      return outcome;
    } catch (error) {
      this.deps.metrics.syncFinished(
        error instanceof SyncInterruptedError ? 'interrupted' : 'failure',
        seconds(),
      );
      throw error;
    }
  }

  /** Shutdown: the page being written is finished, then the sync stops before the next; none starts after. */
  async stop(): Promise<void> {
    this.stopRequested = true;
    await this.running?.catch(() => {});
  }
}

/** Seconds an admin is asked to wait after the provider failed a sync now. */
const SYNC_RETRY_SECONDS = 30;

function syncFailure(error: ProviderError): AppError {
  const disconnected = error.kind === 'not-connected' || error.kind === 'unauthorized';
  return new AppError(
    'EXTERNAL_API_ERROR',
    disconnected ? m.sync_not_connected() : m.sync_provider_unavailable(),
    {
      retryAfter: SYNC_RETRY_SECONDS,
    },
  );
}

/** Syncs the mirror now, or joins the sync already running, and tells what it did once it is done. */
/** The entry is written as the sync starts: the admin asked for it whether it then succeeds or fails. */
export async function syncReceiptsNow(
  deps: AuditDeps & { syncRuns: SyncRunner },
  actor: AuditActor,
): Promise<SyncResult> {
  await recordAudit(deps, actor, { action: 'sync.started', target: 'receipts' });
  const { syncRuns } = deps;
  try {
    return await syncRuns.syncReceipts();
  } catch (error) {
    if (error instanceof ProviderError) throw syncFailure(error);
    if (error instanceof SyncInterruptedError)
      throw new AppError('EXTERNAL_API_ERROR', m.sync_interrupted(), {
        retryAfter: SYNC_RETRY_SECONDS,
      });
    throw error;
  }
}

const isoTime = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** The last successful sync with its counts, and the error of a later one that failed. */
export async function readSyncStatus(deps: { db: Database }): Promise<SyncStatus> {
  const state = await readSyncState(deps);
  return {
    lastSyncedAt: isoTime(state.lastSuccessAt),
    written: state.lastWritten,
    deleted: state.lastDeleted,
    lastError: state.lastError,
    lastErrorAt: isoTime(state.lastErrorAt),
  };
}
