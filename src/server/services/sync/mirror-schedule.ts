/**
 * Background work that keeps the mirror filled: on start the preparations run (the provider's
 * metadata, the sandbox's own connection and demo customer), then a full sync (with Magaya, one
 * when due), then one every SYNC_INTERVAL_SECONDS; other processes' syncs are followed meanwhile.
 */
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { MirrorFollower } from '../receipts';
import { SyncInterruptedError } from './sync-lease';
import type { SyncRunner } from './sync';

export interface MirrorScheduleDeps {
  config: Pick<Config, 'syncIntervalSeconds'>;
  syncRuns: SyncRunner;
  mirror: MirrorFollower;
  log: Logger;
  /** What must be done before the first sync; a failure is logged and the syncs go ahead. */
  prepare: () => Promise<void>;
  /** Whether the start's sync is a full pass (the contract's); otherwise a full pass only when one is due. */
  fullOnStart?: boolean;
}

export class MirrorSchedule {
  private lastReported = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: MirrorScheduleDeps) {}

  start(): void {
    const { config, mirror, prepare } = this.deps;
    mirror.startWatching();
    const prepared = prepare().catch((error) => this.report(error));
    void prepared.then(() => this.syncNow(this.deps.fullOnStart ?? true));
    // A scheduled sync waits for the start-up steps: none mirrors receipts before the demo customer exists.
    this.timer = setInterval(
      () => void prepared.then(() => this.syncNow(false)),
      config.syncIntervalSeconds * 1000,
    ).unref();
  }

  /** Shutdown: no further syncs; the one running finishes the page it is writing and stops. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.deps.syncRuns.stop();
    await this.deps.mirror.stopWatching();
  }

  /** Logs a failure once, not every interval while the provider stays down. */
  private report(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message === this.lastReported) return;
    this.lastReported = message;
    this.deps.log.error({ component: 'sync' }, `Receipt sync failed: ${message}`);
  }

  private async syncNow(full: boolean): Promise<void> {
    try {
      await this.deps.syncRuns.syncReceipts({ full });
      this.lastReported = '';
    } catch (error) {
      // A shutdown's stop is no failure: the sync says itself where the next one picks up.
      if (!(error instanceof SyncInterruptedError)) this.report(error);
    }
  }
}
