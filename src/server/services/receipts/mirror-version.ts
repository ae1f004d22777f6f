/**
 * Which state of the mirror this process answers from. Every sync that changes the mirror counts the
 * version up in the database; every process follows it, its own syncs at once and other processes'
 * within a second (it is polled). Following reads the new state's list orders first and only then
 * moves the read cache to the new version (part of its every key), so no visitor waits behind the
 * reads a sync brings about.
 */
import type { Logger } from '../../logger';
import type { Database } from '../../db/database';
import type { ReceiptIndex } from './receipt-order';
import type { ResponseCache } from './response-cache';

const POLL_MS = 1_000;

export interface MirrorFollowerDeps {
  db: Database;
  receiptIndex: ReceiptIndex;
  responseCache: ResponseCache;
  log: Logger;
}

export class MirrorFollower {
  /** The version this process's caches hold; null until first read. */
  private followed: number | null = null;
  private following: Promise<void> | undefined;
  private watch: NodeJS.Timeout | undefined;

  constructor(private readonly deps: MirrorFollowerDeps) {}

  /**
   * Brings this process to the database's mirror version; a follow already under way may have read
   * an older one, so it runs again after it.
   */
  async follow(): Promise<void> {
    if (this.following) await this.following.catch(() => {});
    this.following ??= this.followOnce().finally(() => {
      this.following = undefined;
    });
    return this.following;
  }

  /** Tells every process that the mirror changed, and follows it here before answering. */
  async announceChange(): Promise<void> {
    const { db, responseCache, receiptIndex } = this.deps;
    try {
      await db.models.SyncState.increment('mirrorVersion', { by: 1, where: { id: 1 } });
      await this.follow();
    } catch (error) {
      // This process at least stops answering from the old state; other processes' caches age out.
      this.deps.log.warn(
        { component: 'sync', err: error },
        'The mirror version could not be counted up',
      );
      responseCache.clear();
      receiptIndex.use(null);
    }
  }

  /** Follows the syncs of other processes on the same database. */
  startWatching(): void {
    this.watch = setInterval(() => {
      this.follow().catch((error) =>
        this.deps.log.warn(
          { component: 'sync', err: error },
          'The mirror version could not be read',
        ),
      );
    }, POLL_MS).unref();
  }

  /** Shutdown: no further polls, and the one under way is done before the database closes. */
  async stopWatching(): Promise<void> {
    clearInterval(this.watch);
    await this.following?.catch(() => {});
  }

  private async readVersion(): Promise<number> {
    const row = await this.deps.db.models.SyncState.findByPk(1, {
      attributes: ['mirrorVersion'],
      raw: true,
    });
    return row?.mirrorVersion ?? 0;
  }

  private async followOnce(): Promise<void> {
    const { responseCache, receiptIndex } = this.deps;
    const version = await this.readVersion();
    if (version === this.followed) return;
    // The first time, nothing is known of what the caches were built from: they start over, the orders on first use.
    const orders = this.followed === null ? null : await receiptIndex.read();
    responseCache.follow(version);
    receiptIndex.use(orders);
    this.followed = version;
  }
}
