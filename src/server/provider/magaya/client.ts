/**
 * PROVIDER=magaya: the portal's ProviderClient over Magaya's CSSoapService (docs/provider-magaya.md).
 *
 * A sync's reading happens inside ONE session before the sync writes anything: the first call of a
 * pass reads all it needs, ends the session, and only then hands the receipts over page by page. So a
 * session that fails (a refusal, a time-out, a shutdown) fails the sync before any receipt changed.
 *
 * - A full pass (`since` null) reads every warehouse receipt by date (GetFirstTransbyDate /
 *   GetNextTransbyDate) in slices of dates. Its last page's cursor is the change log's place.
 * - Later syncs (`since` a change-log place) read QueryLog from that place, less an overlap, to now,
 *   fetch each created or edited receipt by GUID and name the deleted ones.
 *
 * Magaya names receipts by GUID; each GUID keeps the portal's number it was first given (`MagayaIdMap`,
 * migration 0028). A receipt's version is the time what the portal reads of it last changed, so a
 * re-read of an unchanged receipt writes nothing.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type {
  PackageScan,
  ProviderAttachment,
  ProviderCapabilities,
  ProviderClient,
  ProviderConsignee,
  ProviderReceipt,
  ReceiptChangesPage,
} from '../contract';
import { readWarehouseReceipt, type MagayaIds } from './receipt';
import { LogEntry, type MagayaSession, type MagayaSessions, WAREHOUSE_RECEIPT } from './session';
import { MagayaError } from './soap';
import type { XmlElement } from './xml';

/** What the portal keeps of a receipt's GUID. */
export interface MagayaReceiptIdRow {
  id: number;
  guid: string;
  digest: string | null;
  versionAt: Date | null;
}

export interface MagayaConsigneeIdRow {
  id: number;
  guid: string;
  name: string;
}

/** The GUID → number maps over the database (src/server/services/magaya-ids.ts). */
export interface MagayaIdMap {
  /** Every receipt's row: a full pass needs them all. */
  allReceipts(): Promise<MagayaReceiptIdRow[]>;
  receiptsByGuid(guids: string[]): Promise<MagayaReceiptIdRow[]>;
  receiptGuid(id: number): Promise<string | null>;
  /** The highest receipt number given so far (0 for none). */
  lastReceiptId(): Promise<number>;
  allConsignees(): Promise<MagayaConsigneeIdRow[]>;
  /** New and changed rows, in one transaction. */
  save(receipts: MagayaReceiptIdRow[], consignees: MagayaConsigneeIdRow[]): Promise<void>;
}

/** The outcome of each session, for Token Management. */
export interface MagayaSessionLog {
  record(error: MagayaError | null): Promise<void>;
}

/**
 * The packages the mirror holds under a tracking number: Magaya's package search reads them (it has
 * no scans to ask).
 */
export type MirrorPackageLookup = (trackingNumber: string) => Promise<PackageScan[]>;

export interface MagayaClientDeps {
  sessions: MagayaSessions;
  ids: MagayaIdMap;
  sessionLog: MagayaSessionLog;
  clock: Clock;
  mirrorPackages: MirrorPackageLookup;
  log: Logger;
}

/** The change log's place in a cursor: `log:` and the ISO time up to which it was read. */
const LOG_CURSOR = 'log:';
/** A full pass's place among the receipts it read: `pass:<pass>:<offset>`. */
const PASS_CURSOR = 'pass:';
/** The full read's first date: Magaya is older than no forwarder's receipts the portal would show. */
export const FULL_READ_FROM = Date.UTC(2000, 0, 1);
/** The full read asks for one year of dates at a time (each slice's pages follow by cookie). */
export const FULL_READ_SLICE_MS = 366 * 86_400_000;
/**
 * Receipts asked for per GetNextTransbyDate page: the answer is read as it streams, so a page's
 * size costs no memory.
 */
export const FULL_READ_PAGE_SIZE = 500;
/** QueryLog is asked from the last place less this, for changes logged late or a clock a little behind. */
export const LOG_OVERLAP_MS = 10 * 60_000;
/** QueryLog is asked in windows of at most six hours: wide windows time out. */
export const LOG_SLICE_MS = 6 * 3_600_000;
const WANTED = 'WarehouseReceipt';

/** A full pass's receipts, read and waiting to be handed over; one at a time, as the sync runs one at a time. */
interface StagedPass {
  id: string;
  /** Each receipt as JSON text, which takes less memory than the objects while the pass waits to be written. */
  receipts: string[];
  logCursor: string;
}

const digestOf = (receipt: ProviderReceipt) =>
  createHash('sha256')
    .update(JSON.stringify({ ...receipt, updatedAt: '' }))
    .digest('hex');

export class MagayaProviderClient implements ProviderClient {
  private staged: StagedPass | null = null;
  private passes = 0;

  constructor(private readonly deps: MagayaClientDeps) {}

  async listReceiptChanges(since: string | null, limit = 500): Promise<ReceiptChangesPage> {
    if (since?.startsWith(PASS_CURSOR)) return this.stagedPage(since, limit);
    const from = since?.startsWith(LOG_CURSOR) ? Date.parse(since.slice(LOG_CURSOR.length)) : NaN;
    if (!Number.isNaN(from)) return this.readChanges(from);
    // No place, or another provider's (a portal that read the contract before): everything is read,
    // and the pass is complete.
    this.staged = await this.readEverything();
    return this.stagedPage(`${PASS_CURSOR}${this.staged.id}:0`, limit);
  }

  async getReceipt(id: number): Promise<ProviderReceipt | null> {
    const guid = await this.deps.ids.receiptGuid(id);
    if (!guid) return null;
    const element = await this.session((session) =>
      session.getTransaction({ type: WAREHOUSE_RECEIPT, flags: 0, number: guid }, WANTED),
    );
    if (!element) return null;
    const known = await this.deps.ids.receiptsByGuid([guid]);
    const reader = new ReceiptReader(
      this.deps.clock.now(),
      known,
      await this.deps.ids.lastReceiptId(),
      await this.deps.ids.allConsignees(),
    );
    return reader.read(element)?.receipt ?? null;
  }

  /**
   * The consignees the receipts name (Magaya's consignee list is not read: a consignee without
   * receipts has nothing to show).
   */
  async listConsignees(): Promise<ProviderConsignee[]> {
    // A consignee its receipts name without a name has nothing to import by.
    return (await this.deps.ids.allConsignees())
      .filter(({ name }) => name)
      .map(({ id, name }) => ({ id, name }));
  }

  searchPackageScans(trackingNumber: string): Promise<PackageScan[]> {
    return this.deps.mirrorPackages(trackingNumber);
  }

  async listAttachments(receiptId: number): Promise<ProviderAttachment[] | null> {
    const guid = await this.deps.ids.receiptGuid(receiptId);
    if (!guid) return null;
    const entries = await this.session((session) =>
      session.listAttachments({ type: WAREHOUSE_RECEIPT, number: guid }),
    );
    // The receipt's GUID travels in the id: GetAttachment asks for both.
    return (
      entries?.map(({ attachment }) => ({ ...attachment, id: `${guid}/${attachment.id}` })) ?? null
    );
  }

  async downloadAttachment(id: string, maxBytes: number) {
    const cut = id.indexOf('/');
    if (cut < 1) return null;
    const query = {
      type: WAREHOUSE_RECEIPT,
      number: id.slice(0, cut),
      identifier: id.slice(cut + 1),
    };
    const bytes = await this.session((session) => session.getAttachment(query, maxBytes));
    if (!bytes) return null;
    return {
      contentType: null,
      chunks: (async function* () {
        yield bytes;
      })(),
    };
  }

  /** Magaya is only read: pre-alerts stay in the portal and are matched there. */
  async readCapabilities(): Promise<ProviderCapabilities> {
    return { prealerts: false };
  }

  async savePrealert(): Promise<void> {
    throw new MagayaError('bad_response', 'Pre-alerts are not sent to Magaya');
  }

  async withdrawPrealert(): Promise<void> {
    throw new MagayaError('bad_response', 'Pre-alerts are not sent to Magaya');
  }

  /** Tries the API user: a session started and ended, nothing read. */
  async testConnection(): Promise<void> {
    await this.session(async () => undefined);
  }

  /** One session's work; its outcome is recorded for Token Management. */
  private async session<T>(work: (session: MagayaSession) => Promise<T>): Promise<T> {
    try {
      const result = await this.deps.sessions.run(work);
      await this.deps.sessionLog.record(null);
      return result;
    } catch (error) {
      if (error instanceof MagayaError && error.code !== 'stopped')
        await this.deps.sessionLog.record(error);
      throw error;
    }
  }

  private stagedPage(cursor: string, limit: number): ReceiptChangesPage {
    const [pass, offsetText] = cursor.slice(PASS_CURSOR.length).split(':');
    const staged = this.staged;
    // The pass was read by this process and is gone (a restart): the sync starts a full pass again.
    if (!staged || staged.id !== pass) throw new MagayaError('stopped');
    const offset = Number(offsetText);
    const end = Math.min(offset + limit, staged.receipts.length);
    const receipts = staged.receipts
      .slice(offset, end)
      .map((text) => JSON.parse(text) as ProviderReceipt);
    const hasMore = end < staged.receipts.length;
    if (!hasMore) this.staged = null;
    return {
      receipts,
      hasMore,
      complete: true,
      nextCursor: hasMore ? `${PASS_CURSOR}${pass}:${end}` : staged.logCursor,
    };
  }

  /** The full pass: every receipt by date, in slices, in one session; the maps saved once it ended well. */
  private async readEverything(): Promise<StagedPass> {
    const { ids, clock } = this.deps;
    this.staged = null;
    const startedAt = clock.now();
    const reader = new ReceiptReader(
      startedAt,
      await ids.allReceipts(),
      await ids.lastReceiptId(),
      await ids.allConsignees(),
    );
    const receipts: string[] = [];
    const seen = new Set<string>();
    // A day past now: whatever Magaya's time zone, today's receipts are in.
    const end = startedAt + 86_400_000;
    await this.session(async (session) => {
      for (let from = FULL_READ_FROM; from < end; from += FULL_READ_SLICE_MS) {
        const query = {
          type: WAREHOUSE_RECEIPT,
          start: new Date(from),
          end: new Date(Math.min(from + FULL_READ_SLICE_MS, end)),
          flags: 0,
          pageSize: FULL_READ_PAGE_SIZE,
        };
        await session.transactionsByDate(query, WANTED, (element) => {
          const reading = reader.read(element);
          // Slices share their edges: a receipt on one is read twice, and kept once. One offline is
          // not mirrored (the pass removes it).
          if (reading?.receipt && !seen.has(reading.guid)) {
            seen.add(reading.guid);
            receipts.push(JSON.stringify(reading.receipt));
          }
        });
      }
    });
    await reader.save(ids);
    this.deps.log.info(
      { component: 'magaya', receipts: receipts.length, durationMs: clock.now() - startedAt },
      `Magaya: read ${receipts.length} receipts by date in one session in ` +
        `${((clock.now() - startedAt) / 1000).toFixed(1)} s.`,
    );
    return {
      id: String(++this.passes),
      receipts,
      logCursor: `${LOG_CURSOR}${new Date(startedAt).toISOString()}`,
    };
  }

  /**
   * A later sync: QueryLog from `from` (less the overlap) to now, in one session. Created and edited
   * receipts are fetched once each; one Magaya no longer has, or keeps offline, is deleted; a receipt
   * only logged as deleted is deleted without asking.
   */
  private async readChanges(from: number): Promise<ReceiptChangesPage> {
    const { ids, clock } = this.deps;
    const now = clock.now();
    // Magaya's dates are whole seconds: the window ends at the second after now, or this second's
    // changes would wait for the next sync.
    const end = new Date(Math.ceil((now + 1) / 1000) * 1000);
    const window = {
      type: WAREHOUSE_RECEIPT,
      start: new Date(from - LOG_OVERLAP_MS),
      end,
      flags: 0,
      sliceMs: LOG_SLICE_MS,
    };
    const fetched: XmlElement[] = [];
    const gone = new Set<string>();
    const changed = new Set<string>();
    await this.session(async (session) => {
      for (const item of await session.queryLog({
        ...window,
        entryTypes: LogEntry.Creation | LogEntry.Edition,
      }))
        changed.add(item.guid);
      for (const item of await session.queryLog({ ...window, entryTypes: LogEntry.Deletion }))
        if (!changed.has(item.guid)) gone.add(item.guid);
      for (const guid of changed) {
        const element = await session.getTransaction(
          { type: WAREHOUSE_RECEIPT, flags: 0, number: guid },
          WANTED,
        );
        if (element) fetched.push(element);
        else gone.add(guid);
      }
    });
    const reader = new ReceiptReader(
      now,
      await ids.receiptsByGuid([...changed]),
      await ids.lastReceiptId(),
      await ids.allConsignees(),
    );
    const receipts: ProviderReceipt[] = [];
    for (const element of fetched) {
      const reading = reader.read(element);
      if (reading?.receipt) receipts.push(reading.receipt);
      else if (reading) gone.add(reading.guid);
    }
    await reader.save(ids);
    const deletedIds = (await ids.receiptsByGuid([...gone])).map((row) => row.id);
    this.deps.log.debug(
      {
        component: 'magaya',
        changed: changed.size,
        fetched: fetched.length,
        gone: gone.size,
        durationMs: clock.now() - now,
      },
      `Magaya: the change log named ${changed.size} receipts created or edited and ` +
        `${gone.size} gone; ${fetched.length} fetched in ${clock.now() - now} ms.`,
    );
    return {
      receipts,
      deletedIds,
      hasMore: false,
      nextCursor: `${LOG_CURSOR}${new Date(now).toISOString()}`,
    };
  }
}

/**
 * Reads receipts against the GUID maps: a new GUID gets the next number, a receipt whose reading
 * differs from the last gets `readAt` as its version, an unchanged one keeps its version. The rows
 * this adds or changes are saved by `save`, once the session's reading ended well.
 */
class ReceiptReader {
  private readonly receipts: Map<string, MagayaReceiptIdRow>;
  private readonly consignees: Map<string, MagayaConsigneeIdRow>;
  private readonly changedReceipts = new Map<string, MagayaReceiptIdRow>();
  private readonly changedConsignees = new Map<string, MagayaConsigneeIdRow>();
  private nextConsigneeId: number;
  private readonly ids: MagayaIds;
  private readonly readAt: string;

  constructor(
    readAt: number,
    receipts: MagayaReceiptIdRow[],
    private nextReceiptId: number,
    consignees: MagayaConsigneeIdRow[],
  ) {
    this.readAt = new Date(readAt).toISOString();
    this.receipts = new Map(receipts.map((row) => [row.guid, row]));
    this.consignees = new Map(consignees.map((row) => [row.guid, row]));
    this.nextConsigneeId = consignees.reduce((last, row) => Math.max(last, row.id), 0);
    this.ids = {
      receiptId: (guid) => {
        const known = this.receipts.get(guid);
        if (known) return known.id;
        const row = { id: ++this.nextReceiptId, guid, digest: null, versionAt: null };
        this.receipts.set(guid, row);
        return row.id;
      },
      consigneeId: (guid) => {
        const known = this.consignees.get(guid);
        if (known) return known.id;
        const row = { id: ++this.nextConsigneeId, guid, name: '' };
        this.consignees.set(guid, row);
        // Saved even without a name: the number is the receipt's from now on.
        this.changedConsignees.set(guid, row);
        return row.id;
      },
    };
  }

  /** A receipt with its GUID; its receipt null when customers may not see it (IsOnline=false); null without a GUID. */
  read(element: XmlElement): { guid: string; receipt: ProviderReceipt | null } | null {
    const reading = readWarehouseReceipt(element, { ids: this.ids, updatedAt: this.readAt });
    if (reading.kind === 'unidentified') return null;
    if (reading.kind === 'offline') return { guid: reading.guid, receipt: null };
    const { guid, receipt, consignee } = reading;
    if (consignee) {
      const row = this.consignees.get(consignee.guid)!;
      if (row.name !== consignee.name && consignee.name)
        this.changedConsignees.set(
          row.guid,
          Object.assign(row, { name: consignee.name.slice(0, 200) }),
        );
    }
    const row = this.receipts.get(guid)!;
    const digest = digestOf(receipt);
    if (row.digest === digest && row.versionAt)
      return { guid, receipt: { ...receipt, updatedAt: row.versionAt.toISOString() } };
    this.changedReceipts.set(
      guid,
      Object.assign(row, { digest, versionAt: new Date(this.readAt) }),
    );
    return { guid, receipt };
  }

  async save(ids: MagayaIdMap): Promise<void> {
    if (this.changedReceipts.size > 0 || this.changedConsignees.size > 0)
      await ids.save([...this.changedReceipts.values()], [...this.changedConsignees.values()]);
  }
}
