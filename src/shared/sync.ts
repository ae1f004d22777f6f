/**
 * How fresh the mirror is, for the dashboard and the receipts screen ("Updated 3 minutes ago", a
 * warning once syncs have stopped), and what a sync did, for "Sync now" on Token Management.
 */
import { m } from '~/paraglide/messages.js';
import { formatCount, formatDateTime, formatTimeAgo } from './format';

/** Older than this many sync intervals, the data shows as possibly out of date. */
export const STALE_AFTER_INTERVALS = 3;
/** How often an open page brings "Updated … ago" up to date, at most (faster with a shorter sync interval). */
export const FRESHNESS_TICK_MS = 30_000;

/** The `meta` of the statistics answer: `{ success, data, meta }`. */
export interface FreshnessMeta {
  /** ISO time of the mirror's last successful sync; null before the first. */
  lastSyncedAt: string | null;
}

/** POST /api/sync: what the sync that just ended wrote and removed. */
export interface SyncResult {
  /** A full pass (it also removes what the provider deleted), not one of changes since the last. */
  full: boolean;
  written: number;
  deleted: number;
  /** Statuses the sync saw change. */
  statusChanges: number;
  finishedAt: string;
}

/** GET /api/sync: the last successful sync and its counts, and the error of a later one that failed. */
export interface SyncStatus {
  lastSyncedAt: string | null;
  written: number | null;
  deleted: number | null;
  /** Set when the latest sync failed; cleared by the next one that succeeds. */
  lastError: string | null;
  lastErrorAt: string | null;
}

/** The staleness rule: the last sync lies more than three sync intervals back (or never happened). */
export function isStale(
  lastSyncedAt: string | null,
  now: number,
  syncIntervalSeconds: number,
): boolean {
  if (!lastSyncedAt) return true;
  return now - Date.parse(lastSyncedAt) > STALE_AFTER_INTERVALS * syncIntervalSeconds * 1000;
}

/**
 * Whether a page should ask again before it shows the warning: the time it shows may only look old
 * because the page has not asked since (a sync ran meanwhile). At most once a sync interval.
 */
export function shouldRecheck(
  lastSyncedAt: string | null,
  checkedAt: number,
  now: number,
  syncIntervalSeconds: number,
): boolean {
  return (
    isStale(lastSyncedAt, now, syncIntervalSeconds) && now - checkedAt >= syncIntervalSeconds * 1000
  );
}

/** How often an open page updates its "Updated … ago". */
export const freshnessTickMs = (syncIntervalSeconds: number) =>
  Math.min(FRESHNESS_TICK_MS, syncIntervalSeconds * 1000);

export interface Freshness {
  /** 'Updated 3 minutes ago'. */
  text: string;
  /** The exact date and time, for hover and focus. */
  exact: string;
  stale: boolean;
}

export function describeFreshness(
  lastSyncedAt: string,
  now: number,
  syncIntervalSeconds: number,
): Freshness {
  const justNow = now - Date.parse(lastSyncedAt) < 60_000;
  return {
    text: justNow
      ? m.freshness_updated_just_now()
      : m.freshness_updated({ ago: formatTimeAgo(lastSyncedAt, now) }),
    exact: m.freshness_exact({ dateTime: formatDateTime(lastSyncedAt) }),
    stale: isStale(lastSyncedAt, now, syncIntervalSeconds),
  };
}

/** 'Sync finished: 12 receipts written, 1 removed.' */
export function syncCountsText(written: number, deleted: number): string {
  return m.sync_counts({ written: formatCount(written), deleted: formatCount(deleted) });
}
