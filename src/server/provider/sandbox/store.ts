/**
 * The sandbox's receipts in memory, kept sorted by (updatedAt, id) so a page after a cursor is one
 * binary search and a slice. Every change window (SANDBOX_CHANGE_SECONDS, applied when changes are
 * asked for, or at once through the control endpoint) moves a few receipts along their lifecycle,
 * adds a few and now and then deletes one; a change always gets an updatedAt later than any before.
 * A package pre-alerted to it (`POST /v1/prealerts`) arrives in the first window after the one it was
 * announced in: a new receipt for that consignee with that tracking number.
 *
 * The data is a function of the seed, the start and the windows since it: every window that has passed
 * is applied, in order, so a store rebuilt from the same start (`remembered`: the pre-alerts it was told
 * of and the windows the control applied ahead of time) is the store as it was.
 */
import type {
  PackageScan,
  ProviderConsignee,
  ProviderReceipt,
  ReceiptChangesPage,
} from '../contract';
import {
  consigneePool,
  describeRecord,
  FINAL_STAGE,
  generateSandbox,
  Hold,
  isSettled,
  receiptOf,
  STREAM,
  type ConsigneePool,
  type SandboxRecord,
} from './generator';
import { mixSeed, Random } from './random';

/** The change log (Magaya's QueryLog) keeps this many entries, the newest. */
const CHANGE_LOG_ENTRIES = 50_000;

/**
 * A change as Magaya's log records it: when, which receipt, and what (QueryLog's bits: creation 1,
 * deletion 2, edition 4).
 */
export interface LoggedChange {
  at: number;
  id: number;
  entry: 1 | 2 | 4;
}

export interface Cursor {
  updatedAt: number;
  id: number;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.updatedAt}:${cursor.id}`).toString('base64url');
}

export function decodeCursor(text: string): Cursor | null {
  const match = /^(\d{1,15}):(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString());
  return match ? { updatedAt: Number(match[1]), id: Number(match[2]) } : null;
}

const compare = (a: Cursor, b: Cursor) => a.updatedAt - b.updatedAt || a.id - b.id;

export interface WindowChanges {
  window: number;
  advanced: number[];
  added: number[];
  deleted: number[];
}

/** A pre-alert as the sandbox's warehouse keeps it (the portal's id and the package it announces). */
export interface SandboxPrealert {
  id: number;
  consigneeId: number;
  trackingNumber: string;
  shipper: string;
  description: string;
}

/** What the warehouse did with a pre-alert it was told of: waits for the package, or received it on a receipt. */
export type SandboxPrealertState =
  { status: 'pending'; receiptId: null } | { status: 'received'; receiptId: number };

export interface HeldPrealert extends SandboxPrealert {
  /** The window it was announced in: its package arrives in a later one. */
  announcedIn: number;
  receiptId: number | null;
}

/** What the store cannot work out from its seed, size and start alone. */
export interface SandboxMemory {
  /** Windows applied, ahead of time too (the control's advance). */
  windowsApplied: number;
  /** The pre-alerts it holds, in the order it was told of them, as announced (not received). */
  prealerts: HeldPrealert[];
}

export interface SandboxSamples {
  receipts: number;
  consigneeIds: number[];
  /** Scanned at the warehouse, on no receipt. */
  trackingNumbersWithoutReceipt: string[];
  /** Scanned at the warehouse and on a receipt (which may since have been deleted). */
  scannedPackages: { trackingNumber: string; receiptId: number }[];
}

export class SandboxStore {
  readonly consignees: ProviderConsignee[];
  private readonly byChange: SandboxRecord[];
  private readonly byId = new Map<number, SandboxRecord>();
  private readonly scans: Map<string, PackageScan[]>;
  private readonly orphanTrackingNumbers: string[];
  private readonly scannedPackages: SandboxSamples['scannedPackages'];
  private readonly pool: ConsigneePool;
  private readonly prealerts = new Map<number, HeldPrealert>();
  private readonly changeLog: LoggedChange[] = [];
  private windowsApplied = 0;
  private latestChange = 0;
  private nextId: number;

  constructor(
    private readonly seed: number,
    count: number,
    private readonly startedAt: number,
  ) {
    const data = generateSandbox(seed, count, startedAt);
    this.consignees = data.consignees;
    this.scans = data.scans;
    this.orphanTrackingNumbers = data.orphanTrackingNumbers;
    this.scannedPackages = data.scannedPackages;
    this.pool = consigneePool(data.consignees.length);
    this.byChange = [...data.records].sort(compare);
    for (const record of data.records) {
      this.byId.set(record.id, record);
      this.latestChange = Math.max(this.latestChange, record.updatedAt);
    }
    this.nextId = (data.records.at(-1)?.id ?? 100_000) + 1;
  }

  get size(): number {
    return this.byChange.length;
  }

  /** What to keep for a store rebuilt on the same start to be this one (`restore`). */
  memory(): SandboxMemory {
    return {
      windowsApplied: this.windowsApplied,
      prealerts: [...this.prealerts.values()].map((prealert) => ({ ...prealert, receiptId: null })),
    };
  }

  /** A fresh store on the same start becomes the one `memory` was taken of, once its windows are applied. */
  restore(memory: SandboxMemory, now: number, intervalMs: number): void {
    for (const prealert of memory.prealerts)
      this.prealerts.set(prealert.id, { ...prealert, receiptId: null });
    this.catchUp(now, intervalMs);
    while (this.windowsApplied < memory.windowsApplied) this.advance(now);
  }

  /** Receipts changed after `since` (all, without one), oldest change first. */
  listChanges(since: Cursor | null, limit: number): ReceiptChangesPage {
    const start = since ? this.firstAfter(since) : 0;
    const page = this.byChange.slice(start, start + limit);
    const last = page.at(-1);
    return {
      receipts: page.map((record) => this.receiptOf(record)),
      nextCursor: last ? encodeCursor(last) : since && encodeCursor(since),
      hasMore: start + page.length < this.byChange.length,
    };
  }

  receipt(id: number): ProviderReceipt | null {
    const record = this.byId.get(id);
    return record ? this.receiptOf(record) : null;
  }

  /** The ids of the receipts received in [from, to] (epoch ms), oldest first (newest first `backwards`). */
  receivedBetween(from: number, to: number, backwards: boolean): number[] {
    const ids = this.byChange
      .filter((record) => record.receivedAt >= from && record.receivedAt <= to)
      .sort((a, b) => a.receivedAt - b.receivedAt || a.id - b.id);
    return (backwards ? ids.reverse() : ids).map((record) => record.id);
  }

  /** The changes logged in [from, to] (epoch ms), oldest first. */
  changesBetween(from: number, to: number): LoggedChange[] {
    return this.changeLog
      .filter((change) => change.at >= from && change.at <= to)
      .sort((a, b) => a.at - b.at);
  }

  /** A receipt as the sandbox keeps it, for what follows from it (its attachments); null when there is none. */
  record(id: number): Readonly<SandboxRecord> | null {
    return this.byId.get(id) ?? null;
  }

  scansFor(trackingNumber: string): PackageScan[] {
    return this.scans.get(trackingNumber.toUpperCase()) ?? [];
  }

  samples(): SandboxSamples {
    return {
      receipts: this.byChange.length,
      consigneeIds: this.consignees.map((consignee) => consignee.id),
      trackingNumbersWithoutReceipt: this.orphanTrackingNumbers.slice(0, 5),
      scannedPackages: this.scannedPackages.slice(0, 5),
    };
  }

  /**
   * Takes a new pre-alert, or the changes to one not yet received (an upsert by the portal's id); one
   * already received stays as it arrived. `created` says whether it was new.
   */
  announcePrealert(prealert: SandboxPrealert): SandboxPrealertState & { created: boolean } {
    const held = this.prealerts.get(prealert.id);
    if (held?.receiptId) return { status: 'received', receiptId: held.receiptId, created: false };
    this.prealerts.set(prealert.id, {
      ...prealert,
      announcedIn: this.windowsApplied,
      receiptId: null,
    });
    return { status: 'pending', receiptId: null, created: held === undefined };
  }

  /** Forgets a pre-alert whose package has not come; null for one it never had. */
  withdrawPrealert(id: number): SandboxPrealertState | null {
    const held = this.prealerts.get(id);
    if (!held) return null;
    if (held.receiptId) return { status: 'received', receiptId: held.receiptId };
    this.prealerts.delete(id);
    return { status: 'pending', receiptId: null };
  }

  /** Applies the change windows that have passed by `now` (one every `intervalMs` since start), every one of them. */
  catchUp(now: number, intervalMs: number): void {
    const due = Math.floor((now - this.startedAt) / intervalMs);
    while (this.windowsApplied < due) this.applyWindow(++this.windowsApplied, now);
  }

  /** Applies the next change window now. */
  advance(now: number): WindowChanges {
    return this.applyWindow(++this.windowsApplied, now);
  }

  private receiptOf(record: SandboxRecord): ProviderReceipt {
    return receiptOf(this.seed, record, this.consignees);
  }

  private firstAfter(cursor: Cursor): number {
    let low = 0;
    let high = this.byChange.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(this.byChange[middle]!, cursor) > 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private remove(record: SandboxRecord): void {
    this.byChange.splice(this.firstAfter(record) - 1, 1);
  }

  private nextStamp(now: number): number {
    this.latestChange = Math.max(now, this.latestChange + 1);
    return this.latestChange;
  }

  /** Everything in window `window` follows from (seed, window) and the state before it. */
  private applyWindow(window: number, now: number): WindowChanges {
    const random = new Random(mixSeed(this.seed, STREAM.window, window));
    const changes: WindowChanges = { window, advanced: [], added: [], deleted: [] };

    const moving = this.byChange.filter((record) => !isSettled(record));
    const advanceCount = Math.min(moving.length, random.int(2, 5));
    for (let i = 0; i < advanceCount; i++) {
      const pick = random.int(i, moving.length - 1);
      [moving[i], moving[pick]] = [moving[pick]!, moving[i]!];
      const record = moving[i]!;
      this.remove(record);
      advanceRecord(random, record);
      record.updatedAt = this.nextStamp(now);
      this.byChange.push(record);
      changes.advanced.push(record.id);
    }

    if (this.byChange.length > 0 && random.chance(0.25)) {
      const record = this.byChange[random.int(0, this.byChange.length - 1)]!;
      if (!changes.advanced.includes(record.id)) {
        this.remove(record);
        this.byId.delete(record.id);
        changes.deleted.push(record.id);
      }
    }

    const addCount = random.int(1, 3);
    for (let i = 0; i < addCount; i++) {
      const id = this.nextId++;
      const record = describeRecord(
        new Random(mixSeed(this.seed, STREAM.receipt, id)),
        id,
        this.pool,
      );
      record.receivedAt = record.updatedAt = this.nextStamp(now);
      record.stage = random.chance(0.15) ? -1 : 0;
      this.byChange.push(record);
      this.byId.set(id, record);
      changes.added.push(id);
    }

    for (const prealert of this.prealerts.values()) {
      if (prealert.receiptId !== null || prealert.announcedIn >= window) continue;
      const id = this.receivePrealerted(prealert, now);
      if (id !== null) changes.added.push(id);
    }
    this.logChanges(changes, now);
    return changes;
  }

  private logChanges(changes: WindowChanges, now: number): void {
    const at = (id: number) => this.byId.get(id)?.updatedAt ?? now;
    this.changeLog.push(
      ...changes.added.map((id) => ({ at: at(id), id, entry: 1 as const })),
      ...changes.advanced.map((id) => ({ at: at(id), id, entry: 4 as const })),
      ...changes.deleted.map((id) => ({ at: now, id, entry: 2 as const })),
    );
    if (this.changeLog.length > CHANGE_LOG_ENTRIES)
      this.changeLog.splice(0, this.changeLog.length - CHANGE_LOG_ENTRIES);
  }

  /**
   * The warehouse receives a pre-alerted package: a new receipt of that consignee at the Miami
   * warehouse; null for a consignee it does not know.
   */
  private receivePrealerted(prealert: HeldPrealert, now: number): number | null {
    const consignee = this.consignees.findIndex(
      (candidate) => candidate.id === prealert.consigneeId,
    );
    if (consignee < 0) return null;
    const id = this.nextId++;
    const record = describeRecord(
      new Random(mixSeed(this.seed, STREAM.receipt, id)),
      id,
      this.pool,
      'MIA',
    );
    Object.assign(record, {
      consignee,
      packages: 1,
      pieces: 1,
      stage: 0,
      prealerted: {
        trackingNumber: prealert.trackingNumber,
        shipper: prealert.shipper,
        description: prealert.description,
      },
    });
    record.receivedAt = record.updatedAt = this.nextStamp(now);
    this.byChange.push(record);
    this.byId.set(id, record);
    prealert.receiptId = id;
    return id;
  }
}

/** One step along the lifecycle: released from hold, received, shipped, arrived…; sometimes held or cancelled. */
function advanceRecord(random: Random, record: SandboxRecord): void {
  if (record.hold === Hold.OnHold) {
    record.hold = Hold.None;
    return;
  }
  if (record.stage < 0) {
    record.stage = 0;
    return;
  }
  const roll = random.next();
  if (roll < 0.05) record.hold = Hold.OnHold;
  else if (roll < 0.08 && record.stage === 0) record.hold = Hold.Cancelled;
  else record.stage = Math.min(FINAL_STAGE, record.stage + 1);
}
