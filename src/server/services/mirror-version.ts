/**
 * Which state of the mirror this process answers from. Every sync that changes the mirror counts the
 * version up in the database; every process follows it, its own syncs at once and other processes'
 * within a second (it is polled). Following reads the new state's list orders first and only then
 * drops the answers of the old state, so no visitor waits behind the reads a sync brings about.
 */
import { SyncState } from '../db/models';
import { readReceiptOrders, useReceiptOrders } from './receipt-order';
import { clearResponseCache } from './response-cache';

const POLL_MS = 1_000;

/** The version this process's caches hold; null until first read. */
let followed: number | null = null;
let following: Promise<void> | undefined;

async function readMirrorVersion(): Promise<number> {
  const row = await SyncState.findByPk(1, { attributes: ['mirrorVersion'], raw: true });
  return row?.mirrorVersion ?? 0;
}

async function followOnce(): Promise<void> {
  const version = await readMirrorVersion();
  if (version === followed) return;
  // The first time, nothing is known of what the caches were built from: they start over, the orders on first use.
  const orders = followed === null ? null : await readReceiptOrders();
  clearResponseCache();
  useReceiptOrders(orders);
  followed = version;
}

/** Brings this process to the database's mirror version; a follow already under way may have read an older one, so it runs again after it. */
export async function followMirrorVersion(): Promise<void> {
  if (following) await following.catch(() => {});
  following ??= followOnce().finally(() => {
    following = undefined;
  });
  return following;
}

/** Tells every process that the mirror changed, and follows it here before answering. */
export async function announceMirrorChange(): Promise<void> {
  try {
    await SyncState.increment('mirrorVersion', { by: 1, where: { id: 1 } });
    await followMirrorVersion();
  } catch (error) {
    // This process at least stops answering from the old state; other processes' caches age out.
    console.warn('The mirror version could not be counted up:', error);
    clearResponseCache();
    useReceiptOrders(null);
  }
}

let watch: NodeJS.Timeout | undefined;

/** Follows the syncs of other processes on the same database. */
export function watchMirrorVersion(): void {
  watch = setInterval(() => {
    followMirrorVersion().catch((error) => console.warn('The mirror version could not be read:', error));
  }, POLL_MS).unref();
}

/** Shutdown: no further polls, and the one under way is done before the database closes. */
export async function stopWatchingMirrorVersion(): Promise<void> {
  clearInterval(watch);
  await following?.catch(() => {});
}
